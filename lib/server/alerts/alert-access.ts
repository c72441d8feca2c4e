import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { alerts, emails, groupMembers, type AlertRow, type Folder, type User } from "@/db/schema";
import { managesUser } from "../users/managed-users";
import { AppError, forbidden, notFound } from "../errors";
import { getFolderOrThrow } from "../folders/get-folder";
import type { Rights } from "../rights/rights";

type Caller = Pick<User, "id" | "role">;

/**
 * What a caller may do with the alerts of one target:
 * - their own alerts: following needs the read right (the digest only lists what they can read);
 *   unfollowing needs nothing, so nobody stays subscribed to a folder they lost access to;
 * - anyone else's, or a group's: the share right on the folder (administrators hold every right),
 *   or, for a manager, being a user of a group they manage.
 */
export type TargetPolicy = { targetId: number; isSelf: boolean; managed: boolean };

export async function policyFor(db: DbOrTx, user: Caller, targetId: number): Promise<TargetPolicy> {
  const isSelf = targetId === user.id;
  const managed = !isSelf && user.role === 4 && (await managesUser(db, user.id, targetId));
  return { targetId, isSelf, managed };
}

/** 403 unless the caller may set (or remove) an alert of the policy's target where they hold `held`. */
export function assertMayManage(policy: TargetPolicy, held: Rights, action: "set" | "remove", where = "this folder") {
  if (policy.isSelf) {
    if (action === "set" && !held.read) throw forbidden(`Following ${where} needs the read right on it`);
    return;
  }
  if (held.browse && (held.share || policy.managed)) return;
  throw forbidden(`Setting alerts for others on ${where} needs the share right`);
}

/**
 * Alerts a caller who may browse the folder sees: all of them with the share right (they may
 * manage them), otherwise those aimed at them or one of their groups, and those they set.
 */
export function mayView(alert: Pick<AlertRow, "targetId" | "ownerId">, user: Caller, held: Rights, groupIds: Set<number>): boolean {
  if (!held.browse) return false;
  return held.share || alert.targetId === user.id || alert.ownerId === user.id || groupIds.has(alert.targetId);
}

export async function groupIdsOf(db: DbOrTx, userId: number): Promise<Set<number>> {
  const found = await db.select({ id: groupMembers.groupId }).from(groupMembers).where(eq(groupMembers.userId, userId));
  return new Set(found.map((g) => g.id));
}

/** An alert the caller may see, with its folder and their rights there; 404 otherwise (api.md: nothing leaks). */
export async function getAlertOrThrow(db: DbOrTx, user: Caller, alertId: number): Promise<{ alert: AlertRow; folder: Folder; rights: Rights }> {
  const [alert] = await db.select().from(alerts).where(eq(alerts.id, alertId)).limit(1);
  if (!alert) throw notFound("Alert");
  const access = await getFolderOrThrow(db, user, alert.folderId, "browse").catch((error: unknown) => {
    throw error instanceof AppError && error.code === "not_found" ? notFound("Alert") : error;
  });
  if (!mayView(alert, user, access.rights, await groupIdsOf(db, user.id))) throw notFound("Alert");
  return { alert, ...access };
}

/**
 * The template an alert may name: an EM_TE_ALERT of the caller's (any, for an administrator),
 * as the Email resource shows them; null keeps the default mail.
 */
export async function assertAlertTemplate(db: DbOrTx, user: Caller, emailId: number | null): Promise<number | null> {
  if (emailId === null) return null;
  const [template] = await db
    .select({ id: emails.id, ownerId: emails.ownerId })
    .from(emails)
    .where(and(eq(emails.id, emailId), eq(emails.type, "EM_TE_ALERT")))
    .limit(1);
  if (!template || (user.role !== 3 && template.ownerId !== user.id)) throw notFound("Alert email template");
  return template.id;
}

/** The contract: an alert exists after its expiration date but is inactive. */
export const isAlertActive = (alert: Pick<AlertRow, "active" | "expirationDate">, now = new Date()) =>
  alert.active && (alert.expirationDate === null || alert.expirationDate > now);
