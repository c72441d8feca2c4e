import type { Metadata } from "next";
import { SignScreen } from "@/components/signatures/sign-screen";
import { getDb } from "@/db";
import { getServerT } from "@/lib/i18n/server";
import { getPlatformConfig } from "@/lib/server/config/platform-config";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  // Never the request's name in the title (history, tab lists); the token never leaves as a referrer.
  return { title: (await getServerT())("meta.sign"), robots: { index: false, follow: false }, referrer: "no-referrer" };
}

/** The page a signing link opens, without an account: the documents, the signer's fields, sign or refuse. */
export default async function SignPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const config = await getPlatformConfig(await getDb());
  return <SignScreen token={token} platformName={config.platform_name} />;
}
