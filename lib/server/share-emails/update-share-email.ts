import "server-only";
import { eq } from "drizzle-orm";
import { shareEmails } from "@/db/schema";
import type { ShareEmailResponse, UpdateShareEmailInput } from "@/lib/contracts/share-emails";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { presentShareEmail } from "./present-share-emails";
import { getOwnShareEmailOrThrow } from "./share-email-access";

/**
 * PUT /share/email/(id): subject and message, kept for the record. Nothing is sent again: the
 * recipients already hold their addresses, and a second mail would only repeat the first.
 */
export async function updateShareEmail(ctx: AuthedCtx, id: number, input: UpdateShareEmailInput, base: string): Promise<ShareEmailResponse> {
  const user = ctx.actor.user;
  return ctx.db.transaction(async (tx) => {
    const row = await getOwnShareEmailOrThrow(tx, user, id);
    const [updated] = await tx
      .update(shareEmails)
      .set({ object: input.object ?? row.object, content: input.content ?? row.content })
      .where(eq(shareEmails.id, row.id))
      .returning();
    await writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_UPDATE", message: "Updated an email share", objectType: "share_email", objectId: row.id, object: updated.object });
    return presentShareEmail(tx, updated, base);
  });
}
