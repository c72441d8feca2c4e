import { notFound, redirect } from "next/navigation";
import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { getDb } from "@/db";
import { getRequestLanguage } from "@/lib/i18n/server";
import { getCurrentUser, hasSessionCookie } from "@/lib/server/auth/current-user";
import { getPlatformConfig } from "@/lib/server/config/platform-config";
import { presentUser } from "@/lib/server/users/serialize-user";

export const dynamic = "force-dynamic";

// Placeholder until ENGINEER A's console layout is merged (A's version wins): administrators and managers only.
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const current = await getCurrentUser();
  if (!current) redirect((await hasSessionCookie()) ? "/login?expired=1" : "/login");
  if (current.user.role !== 3 && current.user.role !== 4) notFound();
  const db = await getDb();
  const [config, account, browserGuess] = await Promise.all([getPlatformConfig(db), presentUser(db, current.user), getRequestLanguage(null)]);
  return (
    <AppShell platformName={config.platform_name} initialAccount={account} browserGuess={browserGuess}>
      {children}
    </AppShell>
  );
}
