import "server-only";
import { and, eq, isNotNull, isNull, lt, notExists, or, gt, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db";
import { oauth2AccessTokens, oauth2Codes, oauth2Grants, oauth2RefreshTokens, sessions } from "@/db/schema";

/**
 * Job `oauth2.purge` (hourly): OAuth2 access tokens past their expiry (authenticate() already
 * refuses them; their rows would otherwise stay), refresh tokens that can no longer be used,
 * codes an hour after they expired, then the grants left with nothing usable, so that the
 * "authorised applications" lists show only what still works.
 */
export async function purgeExpiredOAuthTokens(db: DbOrTx, now = new Date()): Promise<void> {
  await db.delete(sessions).where(and(isNotNull(sessions.scope), lt(sessions.expiresAt, now)));
  await db.delete(oauth2RefreshTokens).where(lt(oauth2RefreshTokens.expiresAt, now));
  await db.delete(oauth2Codes).where(lt(oauth2Codes.expiresAt, new Date(now.getTime() - 3600_000)));
  const liveAccess = db.select({ one: sql`1` }).from(oauth2AccessTokens).where(eq(oauth2AccessTokens.grantId, oauth2Grants.id));
  // A rotated refresh token is kept until it expires, to recognise its reuse, but gives no access.
  const liveRefresh = db
    .select({ one: sql`1` })
    .from(oauth2RefreshTokens)
    .where(and(eq(oauth2RefreshTokens.grantId, oauth2Grants.id), isNull(oauth2RefreshTokens.usedAt), or(isNull(oauth2RefreshTokens.expiresAt), gt(oauth2RefreshTokens.expiresAt, now))));
  await db.delete(oauth2Grants).where(and(notExists(liveAccess), notExists(liveRefresh)));
}

export const purgeExpiredOAuthTokensJob = (db: Db) => purgeExpiredOAuthTokens(db);
