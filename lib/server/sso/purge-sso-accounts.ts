import "server-only";
import { and, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { identityLinks, identityProviders, sessions, ssoFlows, ssoReplays, users } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import { readSsoProvider } from "./sso-provider";

const DAY_MS = 86_400_000;
const SYSTEM = { actor: null, request: { ip: "system", userAgent: null } };
const systemUser = { id: null, name: "system" };

/**
 * Job "sso.purge", hourly. An OpenID Connect or SAML provider is only heard from when someone
 * signs in, so an account "stops appearing" when it has not signed in through its provider for
 * the provider's `purgeTime` days: it is then deactivated (never deleted; its files stay), its
 * sessions end, and the log says why. An administrator reactivates it. Also forgets sign-ins
 * never finished and assertion IDs past their validity. Safe to run twice or concurrently.
 */
export async function purgeSsoAccountsJob(db: Db): Promise<void> {
  const providers = await db
    .select()
    .from(identityProviders)
    .where(and(eq(identityProviders.enable, true), inArray(identityProviders.type, ["oidc", "saml2"])));
  for (const row of providers) {
    const provider = await readSsoProvider(row);
    if (provider.purgeTime <= 0) continue;
    const cutoff = new Date(Date.now() - provider.purgeTime * DAY_MS);
    await db.transaction(async (tx) => {
      const unseen = tx
        .select({ userId: identityLinks.userId })
        .from(identityLinks)
        .where(and(eq(identityLinks.providerId, provider.id), eq(identityLinks.kind, "user"), lt(identityLinks.seenAt, cutoff)));
      const deactivated = await tx
        .update(users)
        .set({ active: false })
        // An account with a password of its own is not the provider's to retire: its owner connected
        // the provider (or an administrator linked it) and may well sign in with the password instead.
        .where(and(inArray(users.id, sql`(${unseen})`), eq(users.active, true), isNull(users.passwordHash), isNull(users.deletedAt)))
        .returning({ id: users.id, login: users.login });
      if (deactivated.length === 0) return;
      await tx.delete(sessions).where(inArray(sessions.userId, deactivated.map((u) => u.id)));
      for (const user of deactivated) {
        await writeLog(tx, SYSTEM, {
          type: "ADMLLOG_UPDATE",
          message: `Deactivated ${user.login}: no sign-in with ${provider.name} for ${provider.purgeTime} days (purgeTime)`,
          objectType: "user",
          objectId: user.id,
          object: user.login,
          user: systemUser,
        });
      }
    });
  }
  const now = new Date();
  await db.delete(ssoFlows).where(lt(ssoFlows.expiresAt, now));
  await db.delete(ssoReplays).where(lt(ssoReplays.expiresAt, now));
}
