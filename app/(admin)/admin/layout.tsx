import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { AdminForbidden } from "@/components/admin/admin-forbidden";
import { AdminNav } from "@/components/admin/admin-nav";
import { AppShell } from "@/components/shell/app-shell";
import { getDb } from "@/db";
import { getRequestLanguage } from "@/lib/i18n/server";
import { getCurrentUser, hasSessionCookie } from "@/lib/server/auth/current-user";
import { getPlatformConfig } from "@/lib/server/config/platform-config";
import { mustEnrolSecondFactor } from "@/lib/server/mfa/enforce-enrolment";
import { isAdmin, isManager } from "@/lib/server/context";
import { presentUser } from "@/lib/server/users/serialize-user";

export const dynamic = "force-dynamic";

/**
 * The admin console: signed-out visitors go to the sign-in page (as in app/(app)/layout.tsx);
 * signed-in users who are neither administrators nor managers get a 403 screen inside the
 * ordinary shell. The APIs enforce the same rule, this only keeps the screens honest.
 */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const current = await getCurrentUser();
  if (!current) redirect((await hasSessionCookie()) ? "/login?expired=1" : "/login");
  const db = await getDb();
  // A demanded second factor not set up yet: the API refuses everything else (lib/server/mfa).
  if (await mustEnrolSecondFactor(db, current.user)) redirect("/login/enrol");
  const [config, account, browserGuess] = await Promise.all([getPlatformConfig(db), presentUser(db, current.user), getRequestLanguage(null)]);
  const allowed = isAdmin(current.user) || isManager(current.user);
  return (
    <AppShell
      platformName={config.platform_name}
      initialAccount={account}
      browserGuess={browserGuess}
      navigation={allowed ? <AdminNav administrator={isAdmin(current.user)} /> : undefined}
      wide={allowed}
    >
      {allowed ? children : <AdminForbidden />}
    </AppShell>
  );
}
