import "server-only";
import { emails } from "@/db/schema";
import type { CreateEmailInput, EmailResponse } from "@/lib/contracts/emails";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { presentEmail } from "./present-emails";
import { assertKnownPlaceholders } from "./template-placeholders";

/** POST /email: a custom alert template (EM_TE_ALERT, the only type the contract lets one create), owned by the caller. */
export async function createEmail(ctx: AuthedCtx, input: CreateEmailInput): Promise<EmailResponse> {
  const user = ctx.actor.user;
  assertKnownPlaceholders(input);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.insert(emails).values({ type: input.type, object: input.object, content: input.content, ownerId: user.id }).returning();
    await writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_INSERT", message: `Created the alert mail "${row.object}"`, objectType: "email", objectId: row.id, object: row.object });
    return presentEmail(tx, row);
  });
}
