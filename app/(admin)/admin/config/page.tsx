import type { Metadata } from "next";
import { ConfigScreen } from "@/components/admin/config-screen";
import { AdministratorsOnly } from "../administrators-only";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("admin.config.title") };
}

export default function AdminConfigPage() {
  return (
    <AdministratorsOnly>
      <ConfigScreen />
    </AdministratorsOnly>
  );
}
