import "server-only";
import type { DbOrTx } from "@/db";
import type { RightRow } from "@/db/schema";
import type { RightResponse } from "@/lib/contracts/rights";
import { pickRights } from "./rights";
import { loadTargetNames } from "./target-names";

/** The contract's Right, with the target's full name (a group's login) and `target_isgroup` (api.md: true = group). */
export async function presentRights(db: DbOrTx, list: RightRow[]): Promise<RightResponse[]> {
  if (list.length === 0) return [];
  const names = await loadTargetNames(db, list.map((r) => r.targetId));
  return list.map((r) => ({
    id: r.id,
    folder_id: r.folderId,
    target_id: String(r.targetId),
    target: names.get(r.targetId)?.name ?? "",
    target_isgroup: names.get(r.targetId)?.isGroup ?? false,
    ...pickRights(r),
  }));
}
