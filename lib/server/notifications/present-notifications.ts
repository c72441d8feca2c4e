import "server-only";
import type { DbOrTx } from "@/db";
import type { NotificationRow } from "@/db/schema";
import { NOTIFICATION_OBJECTS, NOTIFICATION_TYPES } from "@/lib/contracts/notification-kinds";
import type { NotificationResponse } from "@/lib/contracts/notifications";
import { loadOwnerNames } from "../users/owner-names";

/** The contract's Notification (issue 29), with the actors' names read in one query. */
export async function presentNotifications(db: DbOrTx, list: NotificationRow[]): Promise<NotificationResponse[]> {
  const actorIds = [...new Set(list.flatMap((n) => (n.actorId === null ? [] : [n.actorId])))];
  const names = actorIds.length ? await loadOwnerNames(db, actorIds) : new Map<number, string>();
  return list.map((n) => ({
    id: n.id,
    type: oneOf(NOTIFICATION_TYPES, n.type),
    date: n.createdAt.toISOString(),
    read: n.readAt !== null,
    actor: n.actorId === null ? null : { id: n.actorId, name: names.get(n.actorId) ?? "" },
    object: { type: oneOf(NOTIFICATION_OBJECTS, n.objectType), id: n.objectId, name: n.objectName, ...(n.url ? { url: n.url } : {}) },
  }));
}

/** The schema keeps the kinds as text (db/ does not import the contract): read back, each is one of the contract's. */
function oneOf<T extends string>(kinds: readonly T[], value: string): T {
  const kind = kinds.find((k) => k === value);
  if (!kind) throw new Error(`notifications: unknown kind "${value}"`);
  return kind;
}
