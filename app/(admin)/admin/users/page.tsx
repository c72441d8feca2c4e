import type { Metadata } from "next";
import { UsersScreen } from "@/components/admin/people/users-screen";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("adminPeople.users.title") };
}

type Props = { searchParams: Promise<{ keyword?: string | string[] }> };

/** The logs link here with ?keyword= (a person's or a group's name): the search starts from it. */
export default async function AdminUsersPage({ searchParams }: Props) {
  const { keyword } = await searchParams;
  return <UsersScreen initialKeyword={typeof keyword === "string" ? keyword.slice(0, 255) : ""} />;
}
