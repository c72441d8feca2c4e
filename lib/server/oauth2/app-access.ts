import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { oauth2AccessTokens, oauth2Apps, oauth2Codes, oauth2Grants, sessions, type OAuth2App } from "@/db/schema";
import { newToken } from "../auth/tokens";
import { AppError } from "../errors";

/**
 * Client secrets are 256 random bits, so SHA-256 is enough to keep them unreadable at rest (no
 * dictionary can reach them) and costs nothing on each /oauth2/token request, where argon2 would
 * cost ~50 ms of CPU per call on a 2-core machine and offer no extra protection for random secrets.
 */
export const newClientSecret = () => newToken(32);
export const hashSecret = (secret: string) => createHash("sha256").update(secret).digest("hex");

/** Constant-time comparison of a presented secret with the stored hash. */
export function secretMatches(app: Pick<OAuth2App, "secretHash">, presented: string): boolean {
  const a = Buffer.from(hashSecret(presented), "hex");
  const b = Buffer.from(app.secretHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function findApp(db: DbOrTx, clientId: string): Promise<OAuth2App | undefined> {
  const [app] = await db.select().from(oauth2Apps).where(eq(oauth2Apps.clientId, clientId)).limit(1);
  return app;
}

export async function getAppOrThrow(db: DbOrTx, clientId: string): Promise<OAuth2App> {
  const app = await findApp(db, clientId);
  if (!app) throw new AppError("not_found", "OAuth2 application not found");
  return app;
}

/**
 * Ends grants at once: their access tokens (rows of `sessions`, so the very next request with one
 * is a 401), then the grants with their refresh tokens (cascade).
 */
export async function revokeGrants(db: DbOrTx, grantIds: number[]): Promise<void> {
  if (grantIds.length === 0) return;
  const tokens = db.select({ id: oauth2AccessTokens.sessionId }).from(oauth2AccessTokens).where(inArray(oauth2AccessTokens.grantId, grantIds));
  await db.delete(sessions).where(inArray(sessions.id, tokens));
  await db.delete(oauth2Grants).where(inArray(oauth2Grants.id, grantIds));
}

/** Every grant of an application ends, and its codes not yet exchanged (reset of its secret, deletion). */
export async function revokeAppGrants(db: DbOrTx, appId: number): Promise<void> {
  await db.delete(oauth2Codes).where(eq(oauth2Codes.appId, appId));
  const grants = await db.select({ id: oauth2Grants.id }).from(oauth2Grants).where(eq(oauth2Grants.appId, appId));
  await revokeGrants(
    db,
    grants.map((g) => g.id),
  );
}
