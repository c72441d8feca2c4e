import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SignatureBuilder } from "@/components/signatures/signature-builder";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { parseSignatureId } from "../../id";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("meta.signatureBuilder") };
}

/** /signatures/<id>/edit: the builder of a draft request. */
export default async function SignatureBuilderPage({ params }: { params: Promise<{ id: string }> }) {
  const id = parseSignatureId((await params).id);
  if (id === null) notFound();
  return <SignatureBuilder key={id} id={id} />;
}
