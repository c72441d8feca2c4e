import type { Metadata } from "next";
import { RecentScreen } from "@/components/recent/recent-screen";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("meta.recent") };
}

export default function RecentPage() {
  return <RecentScreen />;
}
