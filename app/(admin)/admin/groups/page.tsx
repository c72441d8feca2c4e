import type { Metadata } from "next";
import { GroupsScreen } from "@/components/admin/people/groups-screen";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("adminPeople.groups.title") };
}

type Props = { searchParams: Promise<{ keyword?: string | string[] }> };

/** The logs link here with ?keyword= (a person's or a group's name): the search starts from it. */
export default async function AdminGroupsPage({ searchParams }: Props) {
  const { keyword } = await searchParams;
  return <GroupsScreen initialKeyword={typeof keyword === "string" ? keyword.slice(0, 255) : ""} />;
}
