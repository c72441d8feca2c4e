import type { Metadata } from "next";
import { LogsScreen } from "@/components/admin/logs-screen";
import { AdministratorsOnly } from "../administrators-only";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("admin.logs.title") };
}

export default function AdminLogsPage() {
  return (
    <AdministratorsOnly>
      <LogsScreen />
    </AdministratorsOnly>
  );
}
