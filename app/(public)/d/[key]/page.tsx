import type { Metadata } from "next";
import { DropScreen } from "@/components/public-links/drop-screen";
import { PublicFrame } from "@/components/public-links/public-frame";
import { getDb } from "@/db";
import { getServerT } from "@/lib/i18n/server";
import { getPlatformConfig } from "@/lib/server/config/platform-config";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getServerT())("meta.drop"), robots: { index: false, follow: false }, referrer: "no-referrer" };
}

/** The page a drop link opens, without an account: a drop zone into the owner's folder. */
export default async function DropPage({ params }: { params: Promise<{ key: string }> }) {
  const { key } = await params;
  const config = await getPlatformConfig(await getDb());
  return (
    <PublicFrame platformName={config.platform_name}>
      <DropScreen linkKey={key} />
    </PublicFrame>
  );
}
