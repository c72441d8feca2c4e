import type { Metadata } from "next";
import { LinksAnalyticsScreen } from "@/components/engagement/links-analytics-screen";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("engagement.metaSummary") };
}

/** /links/analytics: engagement across all my links (a static segment, beside /links/<id>/analytics). */
export default function LinksAnalyticsPage() {
  return <LinksAnalyticsScreen />;
}
