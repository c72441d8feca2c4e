import "server-only";
import type { DbOrTx } from "@/db";
import type { NotificationRow } from "@/db/schema";
import type { NotificationResponse } from "@/lib/contracts/notifications";
import { loadOwnerNames } from "../users/owner-names";

/** The contract's Notification (issue 29), with the actors' names read in one query. */
export async function presentNotifications(db: DbOrTx, list: NotificationRow[]): Promise<NotificationResponse[]> {
  const actorIds = [...new Set(list.flatMap((n) => (n.actorId === null ? [] : [n.actorId])))];
  const names = actorIds.length ? await loadOwnerNames(db, actorIds) : new Map<number, string>();
  return list.map((n) => ({
    id: n.id,
    type: n.type,
    date: n.createdAt.toISOString(),
    read: n.readAt !== null,
    actor: n.actorId === null ? null : { id: n.actorId, name: names.get(n.actorId) ?? "" },
    object: { type: n.objectType, id: n.objectId, name: n.objectName, ...(n.url ? { url: n.url } : {}) },
  }));
}
