import "server-only";
import { and, eq, isNull, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { groupManagers, users } from "@/db/schema";
import type { DelegateResponse } from "@/lib/contracts/delegates";
import { displayName } from "../audit/write-log";
import { notFound } from "../errors";

/**
 * The columns a Group delegate is built from: a group_managers row and its user's names. Deleted
 * users keep their manager rows for the record (group-members.ts) but are no delegates.
 */
export function selectDelegates(db: DbOrTx, where: SQL) {
  return db
    .select({
      id: groupManagers.id,
      userId: groupManagers.userId,
      groupId: groupManagers.groupId,
      manageUsers: groupManagers.manageUsers,
      manageSecurity: groupManagers.manageSecurity,
      manageAlerts: groupManagers.manageAlerts,
      login: users.login,
      firstname: users.firstname,
      lastname: users.lastname,
    })
    .from(groupManagers)
    .innerJoin(users, eq(users.id, groupManagers.userId))
    .where(and(where, isNull(users.deletedAt)));
}

type DelegateRow = Awaited<ReturnType<typeof selectDelegates>>[number];

export function serializeDelegate(row: DelegateRow): DelegateResponse {
  return {
    id: row.id,
    user: displayName(row),
    user_id: String(row.userId),
    group_id: String(row.groupId),
    users: row.manageUsers,
    security: row.manageSecurity,
    alerts: row.manageAlerts,
  };
}

export async function getDelegateOrThrow(db: DbOrTx, delegateId: number): Promise<DelegateRow> {
  const [row] = await selectDelegates(db, eq(groupManagers.id, delegateId)).limit(1);
  if (!row) throw notFound("Delegate");
  return row;
}
