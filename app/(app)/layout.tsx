import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { getDb } from "@/db";
import { getRequestLanguage } from "@/lib/i18n/server";
import { getCurrentUser, hasSessionCookie } from "@/lib/server/auth/current-user";
import { getPlatformConfig } from "@/lib/server/config/platform-config";
import { mustEnrolSecondFactor } from "@/lib/server/mfa/enforce-enrolment";
import { presentUser } from "@/lib/server/users/serialize-user";

export const dynamic = "force-dynamic";

/** Every signed-in page: a revoked or expired session lands on the sign-in page. */
export default async function SignedInLayout({ children }: { children: ReactNode }) {
  const current = await getCurrentUser();
  if (!current) redirect((await hasSessionCookie()) ? "/login?expired=1" : "/login");
  const db = await getDb();
  // A demanded second factor not set up yet: the API refuses everything else (lib/server/mfa).
  if (await mustEnrolSecondFactor(db, current.user)) redirect("/login/enrol");
  const [config, account, browserGuess] = await Promise.all([getPlatformConfig(db), presentUser(db, current.user), getRequestLanguage(null)]);
  return (
    <AppShell platformName={config.platform_name} initialAccount={account} browserGuess={browserGuess}>
      {children}
    </AppShell>
  );
}
