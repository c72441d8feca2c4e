import "server-only";
import { ulinkEmails } from "@/db/schema";
import type { CreateUlinkEmailInput, UlinkEmailResponse } from "@/lib/contracts/ulinks";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { hashLinkPassword } from "../links/link-password";
import { insertUlink } from "./create-ulink";
import { presentUlinkEmail } from "./present-ulink-emails";
import { queueUlinkEmailMail } from "./ulink-email-mail";
import { assertFutureExpiration, assertUlinkDestination } from "./ulink-settings";

/**
 * POST /ulink/email: one drop link per recipient (each its own key, so deposits tell who dropped
 * what), each mailed to its recipient with the owner's subject and message. A recipient's
 * `phone` protects their link with an SMS code; `password` protects every link. Same rights as
 * POST /ulink. 201 Drop link by email.
 */
export async function createUlinkEmail(ctx: AuthedCtx, input: CreateUlinkEmailInput, base: string): Promise<UlinkEmailResponse> {
  const user = ctx.actor.user;
  assertFutureExpiration(input.expiration_date);
  const passwordHash = input.password ? await hashLinkPassword(input.password) : null;
  const recipients = input.recipients.filter((r, i, all) => all.findIndex((o) => o.email.toLowerCase() === r.email.toLowerCase()) === i);
  return ctx.db.transaction(async (tx) => {
    await assertUlinkDestination(tx, user, input.folder_id);
    const [row] = await tx
      .insert(ulinkEmails)
      .values({ ownerId: user.id, folderId: input.folder_id, object: input.object, content: input.content, alert: input.alert ? 1 : 0, expirationDate: input.expiration_date ?? null })
      .returning();
    for (const recipient of recipients) {
      const link = await insertUlink(tx, ctx, {
        folderId: input.folder_id,
        receipt: input.alert,
        expirationDate: input.expiration_date ?? null,
        name: input.object || null,
        passwordHash,
        phone: recipient.phone ?? null,
        ulinkEmailId: row.id,
        recipientEmail: recipient.email,
      });
      await queueUlinkEmailMail(tx, user, link, input, base);
    }
    await writeLog(tx, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_INSERT",
      message: `Sent a drop link to ${recipients.map((r) => r.email).join(", ")}`,
      objectType: "ulink_email",
      objectId: row.id,
      object: input.object,
    });
    return presentUlinkEmail(tx, row, base);
  });
}
