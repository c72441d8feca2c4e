import "server-only";
import { and, eq, inArray, ne } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { oauth2AccessTokens, sessions } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { revokeGrants } from "../oauth2/app-access";

/**
 * DELETE /account/session/(id): that session ends at once (its next request is a 401). An OAuth2
 * access token takes its grant along (refresh tokens included), or the application would mint a new
 * one; an app password takes the sessions opened with it (cascade). Another user's session is a 404.
 */
export async function endSession(ctx: AuthedCtx, sessionId: number): Promise<void> {
  const user = ctx.actor.user;
  await ctx.db.transaction(async (tx) => {
    const ended = await endRows(tx, and(eq(sessions.userId, user.id), eq(sessions.id, sessionId)));
    if (ended === 0) throw new AppError("not_found", "Session not found");
    await writeLog(tx, { actor: ctx.actor.realUser, request: ctx.request }, { type: "ADMLLOG_LOGOUT", message: `Session ${sessionId} ended`, objectType: "user", objectId: user.id, object: user.login });
  });
}

/**
 * DELETE /account/sessions: every session but the current one, app passwords included (they are
 * sessions of the list; whoever fears a stolen device wants every door shut).
 */
export async function endOtherSessions(ctx: AuthedCtx): Promise<void> {
  const user = ctx.actor.user;
  const keep = ctx.actor.sessionId;
  await ctx.db.transaction(async (tx) => {
    const where = keep === null ? eq(sessions.userId, user.id) : and(eq(sessions.userId, user.id), ne(sessions.id, keep));
    const ended = await endRows(tx, where);
    await writeLog(tx, { actor: ctx.actor.realUser, request: ctx.request }, { type: "ADMLLOG_LOGOUT", message: `Other sessions ended (${ended})`, objectType: "user", objectId: user.id, object: user.login });
  });
}

async function endRows(tx: DbOrTx, where: ReturnType<typeof and>): Promise<number> {
  const rows = await tx.select({ id: sessions.id }).from(sessions).where(where);
  if (rows.length === 0) return 0;
  const ids = rows.map((r) => r.id);
  const grants = await tx.selectDistinct({ id: oauth2AccessTokens.grantId }).from(oauth2AccessTokens).where(inArray(oauth2AccessTokens.sessionId, ids));
  await revokeGrants(
    tx,
    grants.map((g) => g.id),
  );
  await tx.delete(sessions).where(inArray(sessions.id, ids));
  return rows.length;
}
