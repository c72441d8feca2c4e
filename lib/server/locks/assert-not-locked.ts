import "server-only";
import type { DbOrTx } from "@/db";
import { AppError } from "../errors";
import { isLockedForOthers, loadLocks } from "./serialize-lock";

/** A file locked by someone else refuses changes with 423 (contract: States and transitions). */
export async function assertNotLockedByOther(db: DbOrTx, fileId: number, userId: number): Promise<void> {
  const lock = (await loadLocks(db, [fileId])).get(fileId);
  if (isLockedForOthers(lock, userId)) throw new AppError("locked", "This file is locked by another user");
}
