import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInScreen } from "@/components/auth/sign-in-screen";
import { getDb } from "@/db";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { getPlatformConfig } from "@/lib/server/config/platform-config";
import { safeReturnPath } from "@/lib/server/http/return-path";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getServerT())("meta.signIn") };
}

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  // Only a path of this site: `next` must never send a person elsewhere after signing in.
  const next = safeReturnPath(params.next);
  if (await getCurrentUser()) redirect(next);
  const config = await getPlatformConfig(await getDb());
  return <SignInScreen platformName={config.platform_name} next={next} expired={params.expired === "1"} invited={params.invited === "1"} />;
}
