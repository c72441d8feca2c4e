import type { Metadata } from "next";
import { InvitationsScreen } from "@/components/admin/people/invitations-screen";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("adminPeople.invitations.title") };
}

export default function AdminInvitationsPage() {
  return <InvitationsScreen />;
}
