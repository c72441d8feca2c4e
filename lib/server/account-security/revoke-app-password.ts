import "server-only";
import { and, eq } from "drizzle-orm";
import { sessions } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { appPasswordRows } from "./app-passwords";

/** DELETE /account/app_password/(id): the app password and the sessions opened with it end at once (cascade). */
export async function revokeAppPassword(ctx: AuthedCtx, appPasswordId: number): Promise<void> {
  const user = ctx.actor.user;
  await ctx.db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(sessions)
      .where(and(appPasswordRows(user.id), eq(sessions.id, appPasswordId)))
      .returning({ name: sessions.name });
    if (!gone) throw new AppError("not_found", "App password not found");
    await writeLog(tx, { actor: ctx.actor.realUser, request: ctx.request }, { type: "ADMLLOG_DELETE", message: `App password "${gone.name}" revoked`, objectType: "user", objectId: user.id, object: user.login });
  });
}
