import type { Metadata } from "next";
import { SignatureNewScreen } from "@/components/signatures/signature-new-screen";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { parseSignatureId } from "../id";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("meta.signatureNew") };
}

/** /signatures/new, or /signatures/new?file=<fileId> from the file browser's "Request signatures". */
export default async function SignatureNewPage({ searchParams }: { searchParams: Promise<{ file?: string | string[] }> }) {
  const { file } = await searchParams;
  const fileId = parseSignatureId(typeof file === "string" ? file : undefined) ?? undefined;
  return <SignatureNewScreen fileId={fileId} />;
}
