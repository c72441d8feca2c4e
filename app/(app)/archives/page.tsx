import type { Metadata } from "next";
import { ArchivesScreen } from "@/components/archives/archives-screen";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("archives.title") };
}

export default function ArchivesPage() {
  return <ArchivesScreen />;
}
