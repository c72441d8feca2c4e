import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { MfaEnrolScreen } from "@/components/auth/mfa-enrol-screen";
import { getDb } from "@/db";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { getPlatformConfig } from "@/lib/server/config/platform-config";
import { mustEnrolSecondFactor } from "@/lib/server/mfa/enforce-enrolment";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getServerT())("mfa.enrolTitle") };
}

/** Signed in while a second factor is demanded and missing: set one up before anything else (api.md, "forced"). */
export default async function EnrolPage() {
  const current = await getCurrentUser();
  if (!current) redirect("/login");
  const db = await getDb();
  if (!(await mustEnrolSecondFactor(db, current.user))) redirect("/");
  const config = await getPlatformConfig(db);
  return <MfaEnrolScreen platformName={config.platform_name} next="/" />;
}
