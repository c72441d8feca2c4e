import "server-only";
import { shareEmailRecipients, shareEmails } from "@/db/schema";
import type { CreateShareEmailInput, ShareEmailResponse } from "@/lib/contracts/share-emails";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { newLinkKey } from "../links/link-key";
import { assertUsable, getOwnShareOrThrow } from "../shares/load-share";
import { notifyShareRecipients } from "./notify-recipients";
import { presentShareEmail, recipientUrl } from "./present-share-emails";
import { queueShareEmailMail } from "./share-email-mail";

/**
 * POST /share/email: the owner of a link share mails it to recipients, each with a personal
 * address (`?r=<key>`) so that the owner sees who visited, previewed and downloaded. A share that
 * no longer serves (expired, used up) is not sent (410). 201 Email share.
 */
export async function createShareEmail(ctx: AuthedCtx, input: CreateShareEmailInput, base: string): Promise<ShareEmailResponse> {
  const user = ctx.actor.user;
  const recipients = input.recipients.filter((r, i, all) => all.findIndex((o) => o.email.toLowerCase() === r.email.toLowerCase()) === i);
  return ctx.db.transaction(async (tx) => {
    const share = await getOwnShareOrThrow(tx, user, input.share_id);
    assertUsable(share);
    const [row] = await tx.insert(shareEmails).values({ shareId: share.id, ownerId: user.id, object: input.object, content: input.content }).returning();
    const sent: { email: string; url: string }[] = [];
    for (const recipient of recipients) {
      const key = newLinkKey();
      await tx.insert(shareEmailRecipients).values({ shareEmailId: row.id, email: recipient.email, key });
      await queueShareEmailMail(tx, user, recipient.email, input, recipientUrl(base, share.key, key));
      // The app opens it on its own origin, whatever BASE_URL the mail names.
      sent.push({ email: recipient.email, url: recipientUrl("", share.key, key) });
    }
    await notifyShareRecipients(tx, share, user.id, sent);
    await writeLog(tx, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_INSERT",
      message: `Sent link share ${share.name ?? share.id} to ${recipients.map((r) => r.email).join(", ")}`,
      objectType: "share_email",
      objectId: row.id,
      object: input.object,
    });
    return presentShareEmail(tx, row, base);
  });
}
