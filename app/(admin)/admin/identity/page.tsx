import type { Metadata } from "next";
import { IdentityScreen } from "@/components/admin/identity/identity-screen";
import { AdministratorsOnly } from "../administrators-only";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("admin.identity.title") };
}

export default function AdminIdentityPage() {
  return (
    <AdministratorsOnly>
      <IdentityScreen />
    </AdministratorsOnly>
  );
}
