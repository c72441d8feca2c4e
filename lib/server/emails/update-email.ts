import "server-only";
import { eq } from "drizzle-orm";
import { emails } from "@/db/schema";
import { templateChanges, type EmailResponse, type UpdateEmailInput } from "@/lib/contracts/emails";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { assertEmailChangeable, getVisibleEmailOrThrow } from "./email-access";
import { presentEmail, type EmailRow } from "./present-emails";
import { assertKnownPlaceholders } from "./template-placeholders";

type Changes = Partial<Pick<EmailRow, "object" | "content" | "html" | "to" | "bcc">>;

/**
 * PUT /email/(id): a template's `object` and `content` (its owner or an administrator), or a
 * waiting mail's `to`, `object` and `content` before it leaves. A sent mail is read-only (403).
 */
export async function updateEmail(ctx: AuthedCtx, emailId: number, input: UpdateEmailInput): Promise<EmailResponse> {
  const user = ctx.actor.user;
  return ctx.db.transaction(async (tx) => {
    const row = await getVisibleEmailOrThrow(tx, user, emailId, { forUpdate: true });
    assertEmailChangeable(row, "update");
    const changes = row.type === "EM_TE_ALERT" ? templateFields(input) : { object: input.object, content: input.content, to: input.to, bcc: input.bcc };
    const set: Changes = Object.fromEntries(Object.entries(changes).filter(([k, v]) => v !== undefined && v !== row[k as keyof Changes]));
    const names = Object.keys(set);
    if (names.length === 0) return presentEmail(tx, row);
    // A corrected text would disagree with the HTML part rendered from the old one: send the text alone.
    if (set.content !== undefined) set.html = null;
    const [updated] = await tx.update(emails).set(set).where(eq(emails.id, row.id)).returning();
    await writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_UPDATE", message: `Updated the email "${updated.object}": ${names.join(", ")}`, objectType: "email", objectId: row.id, object: updated.object });
    return presentEmail(tx, updated);
  });
}

/** A template has no recipients, and its text follows the creation rules (known placeholders, not empty). */
function templateFields(input: UpdateEmailInput) {
  const field = input.to !== undefined ? "to" : input.bcc !== undefined ? "bcc" : null;
  if (field) throw new AppError("invalid_request", `A template has no recipients: \`${field}\` is only for a waiting mail`, [{ path: field, message: "Only for EM_TE_TOSEND" }]);
  const fields = templateChanges.parse({ object: input.object, content: input.content });
  assertKnownPlaceholders(fields);
  return fields;
}
