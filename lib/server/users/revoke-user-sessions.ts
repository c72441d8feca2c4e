import "server-only";
import { and, eq, ne } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { oauth2Codes, oauth2Grants, sessions } from "@/db/schema";
import { revokeGrants } from "../oauth2/app-access";

/**
 * Ends every way into a user's account (a changed password or a closed account must not stay
 * signed in elsewhere): every session, and every OAuth2 grant with its access and refresh tokens
 * and the codes not yet exchanged, since a refresh token would otherwise mint new access tokens
 * after the password it was given for is gone (issue 25, finding 8). `keepSessionId` spares the
 * caller's own sign-in session when they change their own password; an OAuth2 token is never
 * spared, its grant goes with the others.
 */
export async function revokeUserSessions(db: DbOrTx, userId: number, keepSessionId: number | null = null) {
  const grants = await db.select({ id: oauth2Grants.id }).from(oauth2Grants).where(eq(oauth2Grants.userId, userId));
  await revokeGrants(
    db,
    grants.map((g) => g.id),
  );
  await db.delete(oauth2Codes).where(eq(oauth2Codes.userId, userId));
  const where = keepSessionId === null ? eq(sessions.userId, userId) : and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId));
  await db.delete(sessions).where(where);
}
