import type { Metadata } from "next";
import { PublicFrame } from "@/components/public-links/public-frame";
import { ShareScreen } from "@/components/public-links/share-screen";
import { getDb } from "@/db";
import { getServerT } from "@/lib/i18n/server";
import { getPlatformConfig } from "@/lib/server/config/platform-config";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  // Never the share's name: the title would show in history and tab lists before any password.
  return { title: (await getServerT())("meta.share"), robots: { index: false, follow: false }, referrer: "no-referrer" };
}

/** The page a share link opens, without an account: the files and folders it shows. */
export default async function SharePage({ params }: { params: Promise<{ key: string }> }) {
  const { key } = await params;
  const config = await getPlatformConfig(await getDb());
  return (
    <PublicFrame platformName={config.platform_name} wide>
      <ShareScreen linkKey={key} />
    </PublicFrame>
  );
}
