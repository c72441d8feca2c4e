import type { Metadata } from "next";
import { GroupsScreen } from "@/components/admin/people/groups-screen";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("adminPeople.groups.title") };
}

export default function AdminGroupsPage() {
  return <GroupsScreen />;
}
