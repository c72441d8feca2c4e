import "server-only";
import type { DbOrTx } from "@/db";
import type { emails } from "@/db/schema";
import type { EmailResponse, EmailType } from "@/lib/contracts/emails";
import { iso } from "../present/envelope";
import { loadOwnerNames } from "../users/owner-names";

export type EmailRow = typeof emails.$inferSelect;

const OUTBOX: readonly string[] = ["EM_TE_SENDED", "EM_TE_TOSEND"];

/**
 * The contract's Email, owners' names in one query. `from`, `to` and `bcc` only for the outbox
 * (the contract). A sensitive mail keeps its subject and addresses but never its body, whoever
 * asks: it holds a reset link or a password that would let the reader into someone's account.
 */
export async function presentEmails(db: DbOrTx, rows: EmailRow[]): Promise<EmailResponse[]> {
  const names = await loadOwnerNames(db, rows.flatMap((e) => (e.ownerId === null ? [] : [e.ownerId])));
  return rows.map((e) => ({
    id: e.id,
    type: e.type as EmailType,
    object: e.object,
    content: e.sensitive ? "" : e.content,
    owner: e.ownerId === null ? "" : (names.get(e.ownerId) ?? ""),
    owner_id: e.ownerId === null ? null : String(e.ownerId),
    ...(OUTBOX.includes(e.type) ? { from: e.from, to: e.to, bcc: e.bcc, attempts: e.attempts, last_error: e.lastError } : {}),
    last_send: iso(e.lastSend),
    sensitive: e.sensitive,
  }));
}

export const presentEmail = async (db: DbOrTx, row: EmailRow) => (await presentEmails(db, [row]))[0];
