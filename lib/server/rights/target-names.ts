import "server-only";
import { inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { groups, users } from "@/db/schema";
import { displayName } from "../audit/write-log";

export type TargetName = { name: string; isGroup: boolean };

/**
 * The `target` and `target_isgroup` of objects aimed at a user or a group (rights, alerts,
 * options), in two queries: a user's full name, a group's login (api.md: true = group).
 */
export async function loadTargetNames(db: DbOrTx, targetIds: number[]): Promise<Map<number, TargetName>> {
  const ids = [...new Set(targetIds)];
  if (ids.length === 0) return new Map();
  const [people, teams] = await Promise.all([
    db.select({ id: users.id, login: users.login, firstname: users.firstname, lastname: users.lastname }).from(users).where(inArray(users.id, ids)),
    db.select({ id: groups.id, login: groups.login }).from(groups).where(inArray(groups.id, ids)),
  ]);
  return new Map<number, TargetName>([
    ...people.map((u) => [u.id, { name: displayName(u), isGroup: false }] as const),
    ...teams.map((g) => [g.id, { name: g.login, isGroup: true }] as const),
  ]);
}
