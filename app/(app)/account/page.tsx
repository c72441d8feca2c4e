import type { Metadata } from "next";
import { AccountScreen } from "@/components/account/account-screen";
import { getDb } from "@/db";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { getPlatformConfig } from "@/lib/server/config/platform-config";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("meta.account") };
}

export default async function AccountPage() {
  const config = await getPlatformConfig(await getDb());
  return <AccountScreen passwordMinLength={config.password_min_length} />;
}
