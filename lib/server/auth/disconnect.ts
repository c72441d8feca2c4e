import "server-only";
import { eq } from "drizzle-orm";
import { sessions } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";

/** DELETE /auth: revokes the session that made the request. */
export async function disconnect(ctx: AuthedCtx): Promise<void> {
  const { sessionId, realUser } = ctx.actor;
  if (sessionId === null) return;
  await ctx.db.transaction(async (tx) => {
    await tx.delete(sessions).where(eq(sessions.id, sessionId));
    await writeLog(tx, { actor: realUser, request: ctx.request }, { type: "ADMLLOG_LOGOUT", message: "Signed out", objectType: "user", objectId: realUser.id, object: realUser.login });
  });
}
