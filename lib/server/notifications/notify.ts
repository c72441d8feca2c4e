import "server-only";
import { and, eq, isNull, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { groupMembers, notifications, users } from "@/db/schema";
import type { NotificationObjectType, NotificationType } from "@/lib/contracts/notification-kinds";

export type NewNotification = {
  type: NotificationType;
  actorId: number | null;
  object: { type: NotificationObjectType; id: number; name: string; url?: string | null };
};

/**
 * Writes one in-app notification (issue 29) for each of `userIds`, in the caller's transaction so
 * that it exists exactly when the event does. The actor is never told of their own act.
 */
export async function notifyUsers(db: DbOrTx, userIds: number[], n: NewNotification): Promise<void> {
  const recipients = [...new Set(userIds)].filter((id) => id !== n.actorId);
  if (recipients.length === 0) return;
  await db.insert(notifications).values(
    recipients.map((userId) => ({ userId, type: n.type, actorId: n.actorId, objectType: n.object.type, objectId: n.object.id, objectName: n.object.name, url: n.object.url ?? null })),
  );
}

/** A principal (user or group; ids share one sequence) as the users it stands for: a group's members. */
export async function usersOfPrincipal(db: DbOrTx, principalId: number): Promise<number[]> {
  const found = await db
    .select({ id: users.id })
    .from(users)
    .leftJoin(groupMembers, eq(groupMembers.userId, users.id))
    .where(and(or(eq(users.id, principalId), eq(groupMembers.groupId, principalId)), isNull(users.deletedAt)));
  return [...new Set(found.map((u) => u.id))];
}

/** The live users whose address is one of `emails` (case-insensitive), for a mail that also reaches them in the app. */
export async function usersWithEmail(db: DbOrTx, emails: string[]): Promise<number[]> {
  if (emails.length === 0) return [];
  const lower = sql`ARRAY[${sql.join(emails.map((e) => sql`${e.toLowerCase()}`), sql`, `)}]::text[]`;
  const found = await db.select({ id: users.id }).from(users).where(and(sql`lower(${users.email}) = ANY(${lower})`, isNull(users.deletedAt), eq(users.active, true)));
  return found.map((u) => u.id);
}
