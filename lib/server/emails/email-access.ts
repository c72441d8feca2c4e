import "server-only";
import { and, eq, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { emails, type User } from "@/db/schema";
import { isAdmin } from "../context";
import { forbidden, notFound } from "../errors";
import type { EmailRow } from "./present-emails";

/** The emails a user may see: their own (templates, mails they caused); administrators see all. */
export function visibleEmails(user: User): SQL | undefined {
  return isAdmin(user) ? undefined : eq(emails.ownerId, user.id);
}

/**
 * One email the user may see, else 404 (someone else's mail is not even named). With `forUpdate`
 * the row stays locked until the transaction ends, so a change and the delivery job do not cross.
 */
export async function getVisibleEmailOrThrow(db: DbOrTx, user: User, emailId: number, options: { forUpdate?: boolean } = {}): Promise<EmailRow> {
  const query = db
    .select()
    .from(emails)
    .where(and(eq(emails.id, emailId), visibleEmails(user)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for("update") : await query;
  if (!row) throw notFound("Email");
  return row;
}

/**
 * Only templates and waiting mails change. A sent mail is the record of what left (the contract:
 * read-only); a mail carrying a secret may be cancelled but not edited, since changing its `to`
 * would send someone's reset link or password elsewhere.
 */
export function assertEmailChangeable(row: EmailRow, action: "update" | "delete") {
  if (row.type === "EM_TE_SENDED") throw forbidden("A sent mail is read-only");
  if (row.type !== "EM_TE_ALERT" && row.type !== "EM_TE_TOSEND") throw forbidden("This email cannot be changed");
  if (action === "update" && row.sensitive) throw forbidden("This mail carries a secret: it can be cancelled, not edited");
}
