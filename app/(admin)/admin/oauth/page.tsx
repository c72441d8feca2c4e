import type { Metadata } from "next";
import { OAuthAppsScreen } from "@/components/admin/oauth/oauth-apps-screen";
import { AdministratorsOnly } from "../administrators-only";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("admin.oauth.title") };
}

export default function AdminOAuthPage() {
  return (
    <AdministratorsOnly>
      <OAuthAppsScreen />
    </AdministratorsOnly>
  );
}
