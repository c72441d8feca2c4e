import type { Metadata } from "next";
import { HomeScreen } from "@/components/home/home-screen";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("meta.home") };
}

export default function HomePage() {
  return <HomeScreen />;
}
