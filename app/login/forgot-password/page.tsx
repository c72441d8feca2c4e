import type { Metadata } from "next";
import { ForgotPasswordScreen } from "@/components/auth/forgot-password-screen";
import { getDb } from "@/db";
import { getServerT } from "@/lib/i18n/server";
import { getPlatformConfig } from "@/lib/server/config/platform-config";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getServerT())("meta.forgotPassword") };
}

export default async function ForgotPasswordPage() {
  const config = await getPlatformConfig(await getDb());
  return <ForgotPasswordScreen platformName={config.platform_name} />;
}
