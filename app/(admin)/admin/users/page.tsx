import type { Metadata } from "next";
import { UsersScreen } from "@/components/admin/people/users-screen";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("adminPeople.users.title") };
}

export default function AdminUsersPage() {
  return <UsersScreen />;
}
