import "server-only";
import { asc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { files, folders, shareRoots, type ShareRow } from "@/db/schema";
import { notifyUsers, usersWithEmail } from "../notifications/notify";

/**
 * Issue 29: recipients of an email share who have an account here also see it in the app, named
 * as the share (or its first item) and opened at their personal address, as the mail does.
 */
export async function notifyShareRecipients(db: DbOrTx, share: ShareRow, actorId: number, recipients: { email: string; url: string }[]) {
  const found = await usersWithEmailEach(db, recipients);
  if (found.length === 0) return;
  const name = share.name ?? (await firstRootName(db, share.id)) ?? share.key;
  for (const { userId, url } of found) await notifyUsers(db, [userId], { type: "share", actorId, object: { type: "share", id: share.id, name, url } });
}

async function usersWithEmailEach(db: DbOrTx, recipients: { email: string; url: string }[]) {
  const out: { userId: number; url: string }[] = [];
  for (const r of recipients) for (const userId of await usersWithEmail(db, [r.email])) out.push({ userId, url: r.url });
  return out;
}

async function firstRootName(db: DbOrTx, shareId: number): Promise<string | null> {
  const [root] = await db.select().from(shareRoots).where(eq(shareRoots.shareId, shareId)).orderBy(asc(shareRoots.id)).limit(1);
  if (!root) return null;
  const table = root.entityType === 1 ? files : folders;
  const [row] = await db.select({ name: table.name }).from(table).where(eq(table.id, root.objectId));
  return row?.name ?? null;
}
