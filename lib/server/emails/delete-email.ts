import "server-only";
import { eq } from "drizzle-orm";
import { emails } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { assertEmailChangeable, getVisibleEmailOrThrow } from "./email-access";

/**
 * DELETE /email/(id): a template (alerts using it fall back to the default mail: the foreign key
 * sets null) or a waiting mail, which cancels its delivery (the mail job skips a missing mail).
 */
export async function deleteEmail(ctx: AuthedCtx, emailId: number): Promise<void> {
  const user = ctx.actor.user;
  await ctx.db.transaction(async (tx) => {
    const row = await getVisibleEmailOrThrow(tx, user, emailId, { forUpdate: true });
    assertEmailChangeable(row, "delete");
    await tx.delete(emails).where(eq(emails.id, row.id));
    const what = row.type === "EM_TE_ALERT" ? "the alert mail" : "the waiting mail";
    await writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_DELETE", message: `Deleted ${what} "${row.object}"`, objectType: "email", objectId: row.id, object: row.object });
  });
}
