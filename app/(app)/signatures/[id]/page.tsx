import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SignatureRequestScreen } from "@/components/signatures/signature-request-screen";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { parseSignatureId } from "../id";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("meta.signatureRequest") };
}

/** /signatures/<id>: one request, its actors, results and history. */
export default async function SignatureRequestPage({ params }: { params: Promise<{ id: string }> }) {
  const id = parseSignatureId((await params).id);
  if (id === null) notFound();
  return <SignatureRequestScreen key={id} id={id} />;
}
