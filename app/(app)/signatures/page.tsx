import type { Metadata } from "next";
import { SignaturesScreen } from "@/components/signatures/signatures-screen";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("meta.signatures") };
}

/** /signatures: the requests I sent and those I received. */
export default function SignaturesPage() {
  return <SignaturesScreen />;
}
