import "server-only";
import type { DbOrTx } from "@/db";
import type { AlertRow } from "@/db/schema";
import type { AlertResponse } from "@/lib/contracts/alerts";
import { loadTargetNames } from "../rights/target-names";
import { loadOwnerNames } from "../users/owner-names";
import { isAlertActive } from "./alert-access";

/** The contract's Email alert: names of targets and owners in three queries, whatever the count. */
export async function presentAlerts(db: DbOrTx, list: AlertRow[]): Promise<AlertResponse[]> {
  if (list.length === 0) return [];
  const [targets, owners] = await Promise.all([loadTargetNames(db, list.map((a) => a.targetId)), loadOwnerNames(db, list.map((a) => a.ownerId))]);
  const now = new Date();
  return list.map((a) => ({
    id: a.id,
    folder_id: a.folderId,
    target_id: a.targetId,
    target: targets.get(a.targetId)?.name ?? "",
    target_isgroup: targets.get(a.targetId)?.isGroup ?? false,
    active: isAlertActive(a, now),
    // The contract's example writes -1 for "the default mail".
    email: a.emailId ?? -1,
    expiration_date: a.expirationDate?.toISOString() ?? null,
    owner: owners.get(a.ownerId) ?? "",
    owner_id: String(a.ownerId),
  }));
}

export const presentAlert = async (db: DbOrTx, row: AlertRow) => (await presentAlerts(db, [row]))[0];
