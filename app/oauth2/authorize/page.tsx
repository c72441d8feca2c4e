import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ConsentRefused, ConsentScreen } from "@/components/oauth2/consent-screen";
import { getDb } from "@/db";
import { getServerT } from "@/lib/i18n/server";
import { displayName } from "@/lib/server/audit/write-log";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { getPlatformConfig } from "@/lib/server/config/platform-config";
import { checkAuthorizationRequest } from "@/lib/server/oauth2/check-authorization-request";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("oauth2.account.title") };
}

/**
 * GET /oauth2/authorize (api.md, "OAuth2"): the consent screen of the web app. Faults the RFC
 * lets go back to the application are redirected there; a person not signed in goes to /login
 * and comes back here. POST /oauth2/authorize (server.ts) takes the answer.
 */
export default async function AuthorizePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const db = await getDb();
  const [check, config] = await Promise.all([checkAuthorizationRequest(db, query), getPlatformConfig(db)]);
  if (check.kind === "invalid") return <ConsentRefused platformName={config.platform_name} reason={check.reason} />;
  if (check.kind === "redirect") redirect(check.to);
  const current = await getCurrentUser();
  if (!current) {
    const here = new URLSearchParams(Object.entries(query).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])));
    redirect(`/login?next=${encodeURIComponent(`/oauth2/authorize?${here}`)}`);
  }
  const params = Object.fromEntries(Object.entries(check.params).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  return <ConsentScreen platformName={config.platform_name} app={check.app} scope={check.params.scope} userName={displayName(current.user)} params={params} />;
}
