import type { Metadata } from "next";
import { StarredScreen } from "@/components/stars/starred-screen";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("meta.starred") };
}

export default function StarredPage() {
  return <StarredScreen />;
}
