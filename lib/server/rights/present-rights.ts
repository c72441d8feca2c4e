import { inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { groups, users, type RightRow } from "@/db/schema";
import type { RightResponse } from "@/lib/contracts/rights";
import { displayName } from "../audit/write-log";
import { pickRights } from "./rights";

/** The contract's Right, with the target's full name (a group's login) and `target_isgroup` (api.md: true = group). */
export async function presentRights(db: DbOrTx, list: RightRow[]): Promise<RightResponse[]> {
  if (list.length === 0) return [];
  const ids = [...new Set(list.map((r) => r.targetId))];
  const [people, teams] = await Promise.all([
    db.select({ id: users.id, login: users.login, firstname: users.firstname, lastname: users.lastname }).from(users).where(inArray(users.id, ids)),
    db.select({ id: groups.id, login: groups.login }).from(groups).where(inArray(groups.id, ids)),
  ]);
  const names = new Map<number, { name: string; isGroup: boolean }>([
    ...people.map((u) => [u.id, { name: displayName(u), isGroup: false }] as const),
    ...teams.map((g) => [g.id, { name: g.login, isGroup: true }] as const),
  ]);
  return list.map((r) => ({
    id: r.id,
    folder_id: r.folderId,
    target_id: String(r.targetId),
    target: names.get(r.targetId)?.name ?? "",
    target_isgroup: names.get(r.targetId)?.isGroup ?? false,
    ...pickRights(r),
  }));
}
