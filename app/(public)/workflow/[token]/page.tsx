import type { Metadata } from "next";
import { PublicFrame } from "@/components/public-links/public-frame";
import { ValidationScreen } from "@/components/workflows/validation-screen";
import { getDb } from "@/db";
import { getServerT } from "@/lib/i18n/server";
import { getPlatformConfig } from "@/lib/server/config/platform-config";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getServerT())("workflow.public.title"), robots: { index: false, follow: false }, referrer: "no-referrer" };
}

/** The page a validator's mailed link opens, without an account (api.md: `BASE_URL/workflow/<token>`). */
export default async function WorkflowPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const config = await getPlatformConfig(await getDb());
  return (
    <PublicFrame platformName={config.platform_name} wide>
      <ValidationScreen token={token} />
    </PublicFrame>
  );
}
