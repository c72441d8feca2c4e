import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AnalyticsScreen } from "@/components/engagement/analytics-screen";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("engagement.metaLink") };
}

/** A share id from the path, or null when it is not one (the page is then a 404). */
function parseShareId(value: string): number | null {
  const id = Number(value);
  return /^\d+$/.test(value) && Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null;
}

/** /links/<id>/analytics: the owner's analytics of one link share (issue 30). */
export default async function LinkAnalyticsPage({ params }: { params: Promise<{ id: string }> }) {
  const id = parseShareId((await params).id);
  if (id === null) notFound();
  return <AnalyticsScreen key={id} shareId={id} />;
}
