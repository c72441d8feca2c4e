import "server-only";
import { eq, sql } from "drizzle-orm";
import { ulinkEmails, ulinks } from "@/db/schema";
import { ULINK_FLAG, type UlinkEmailResponse, type UpdateUlinkEmailInput } from "@/lib/contracts/ulinks";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { presentUlinkEmail } from "./present-ulink-emails";
import { getOwnUlinkEmailOrThrow } from "./ulink-email-access";
import { assertFutureExpiration } from "./ulink-settings";

/**
 * PUT /ulink/email/(id): `object` and `content` are kept for the record and not sent again
 * (recipients already hold their links; a new mail would only repeat it); `alert` and
 * `expiration_date` apply to every recipient's link.
 */
export async function updateUlinkEmail(ctx: AuthedCtx, id: number, input: UpdateUlinkEmailInput, base: string): Promise<UlinkEmailResponse> {
  const user = ctx.actor.user;
  assertFutureExpiration(input.expiration_date);
  return ctx.db.transaction(async (tx) => {
    const row = await getOwnUlinkEmailOrThrow(tx, user, id);
    const [updated] = await tx
      .update(ulinkEmails)
      .set({
        object: input.object ?? row.object,
        content: input.content ?? row.content,
        alert: input.alert === undefined ? row.alert : input.alert ? 1 : 0,
        expirationDate: input.expiration_date === undefined ? row.expirationDate : input.expiration_date,
      })
      .where(eq(ulinkEmails.id, row.id))
      .returning();
    if (input.alert !== undefined || input.expiration_date !== undefined) {
      const receipt = updated.alert ? ULINK_FLAG.receipt : 0;
      await tx
        .update(ulinks)
        .set({ flags: sql`(${ulinks.flags} & ~${ULINK_FLAG.receipt}::int) | ${receipt}::int`, expirationDate: updated.expirationDate })
        .where(eq(ulinks.ulinkEmailId, row.id));
    }
    await writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_UPDATE", message: "Updated a drop link by email", objectType: "ulink_email", objectId: row.id, object: updated.object });
    return presentUlinkEmail(tx, updated, base);
  });
}
