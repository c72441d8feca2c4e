import "server-only";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db";
import { alertChanges, alerts, emails, folders, users } from "@/db/schema";
import { displayName } from "../audit/write-log";
import { getPlatformConfig } from "../config/platform-config";
import { configuredBaseUrl } from "../mail/app-url";
import { queueMail } from "../mail/queue-mail";
import { notifyUsers } from "../notifications/notify";
import { renderMail } from "../mail/render-mail";
import { resolveRightsMany } from "../rights/resolve-many";
import { loadOwnerNames } from "../users/owner-names";
import { isAlertActive } from "./alert-access";
import { ALERT_DIGEST_MAIL, digestLines } from "./digest-mail";
import type { FolderChangeKind } from "./record-folder-change";

/** Links point into the app; jobs have no request, so BASE_URL names it (a local address otherwise). */
const folderLink = (folderId: number) => `${configuredBaseUrl() ?? `http://localhost:${process.env.PORT || 3000}`}/files/${folderId}`;

/**
 * Job "alerts.digest": one mail to one recipient listing every change gathered for them, in
 * their language, then the lines are gone, all in one transaction (a failure mails nothing and
 * keeps the lines for the retry). Lines are locked with SKIP LOCKED, so a digest running while
 * new changes arrive leaves those to the next one. Dropped without a mail: lines of alerts that
 * expired or were paused meanwhile, of folders the recipient may not read (the rights resolver
 * decides, as of now), and everything for a deleted, disabled or address-less account.
 * The newest line's alert chooses the template: its custom EM_TE_ALERT one, or the default.
 */
export async function alertDigestJob(db: Db, payload: Record<string, unknown>): Promise<void> {
  const recipientId = Number(payload.recipientId);
  if (!Number.isInteger(recipientId) || recipientId <= 0) return;
  await db.transaction((tx) => sendDigest(tx, recipientId));
}

async function sendDigest(tx: DbOrTx, recipientId: number) {
  const pending = await tx
    .select({ change: alertChanges, alert: { folderId: alerts.folderId, emailId: alerts.emailId, active: alerts.active, expirationDate: alerts.expirationDate } })
    .from(alertChanges)
    .innerJoin(alerts, eq(alerts.id, alertChanges.alertId))
    .where(eq(alertChanges.recipientId, recipientId))
    .orderBy(asc(alertChanges.id))
    .for("update", { of: alertChanges, skipLocked: true });
  if (pending.length === 0) return;
  await tx.delete(alertChanges).where(inArray(alertChanges.id, pending.map((p) => p.change.id)));

  const [recipient] = await tx.select().from(users).where(and(eq(users.id, recipientId), isNull(users.deletedAt), eq(users.active, true)));
  if (!recipient) return;
  const held = await resolveRightsMany(tx, recipient, pending.map((p) => p.change.folderId));
  const now = new Date();
  const kept = pending.filter((p) => isAlertActive(p.alert, now) && held.get(p.change.folderId)?.read);
  if (kept.length === 0) return;

  const newest = kept[kept.length - 1];
  const followed = newest.alert.folderId;
  const folderIds = [...new Set([followed, ...kept.map((p) => p.change.folderId)])];
  const [names, actors, custom, config] = await Promise.all([
    tx.select({ id: folders.id, name: folders.name }).from(folders).where(inArray(folders.id, folderIds)),
    loadOwnerNames(tx, kept.flatMap((p) => (p.change.actorId === null ? [] : [p.change.actorId]))),
    newest.alert.emailId === null
      ? Promise.resolve([])
      : tx.select({ object: emails.object, content: emails.content }).from(emails).where(and(eq(emails.id, newest.alert.emailId), eq(emails.type, "EM_TE_ALERT"))),
    getPlatformConfig(tx),
  ]);
  const folderName = new Map(names.map((f) => [f.id, f.name]));
  // Issue 29: one in-app notification per digest, on the followed folder, also for a user without an address.
  await notifyUsers(tx, [recipient.id], { type: "alert", actorId: newest.change.actorId, object: { type: "folder", id: followed, name: folderName.get(followed) ?? "" } });
  if (!recipient.email.trim()) return;
  const lines = kept.map(({ change }) => ({
    kind: change.kind as FolderChangeKind,
    objectType: change.objectType,
    name: change.objectName,
    folder: folderName.get(change.folderId) ?? "",
    actor: change.actorId === null ? "" : (actors.get(change.actorId) ?? ""),
    link: folderLink(change.folderId),
  }));
  const mail = renderMail(
    ALERT_DIGEST_MAIL,
    {
      recipient: displayName(recipient),
      folder: folderName.get(followed) ?? "",
      link: folderLink(followed),
      changes: digestLines(lines, recipient.language),
      count: String(lines.length),
      actor: [...new Set(lines.map((l) => l.actor))].join(", "),
      file: lines.length === 1 ? lines[0].name : "",
      platform: config.platform_name,
    },
    { language: recipient.language, custom: custom[0] ?? null },
  );
  // The recipient's own mail: they alone may read what it lists.
  await queueMail(tx, { to: recipient.email, ...mail, ownerId: recipient.id });
}
