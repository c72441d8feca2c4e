import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { DashboardScreen } from "@/components/admin/dashboard-screen";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { isManager } from "@/lib/server/context";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("admin.dashboard.title") };
}

/** The dashboard is the administrators' (statistics); managers start at their users. */
export default async function AdminDashboardPage() {
  const current = await getCurrentUser();
  if (current && isManager(current.user)) redirect("/admin/users");
  return <DashboardScreen />;
}
