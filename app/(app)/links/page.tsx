import type { Metadata } from "next";
import { LinksScreen } from "@/components/sharing/links-screen";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("meta.links") };
}

export default function LinksPage() {
  return <LinksScreen />;
}
