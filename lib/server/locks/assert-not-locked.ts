import "server-only";
import type { DbOrTx } from "@/db";
import { AppError } from "../errors";
import { isLockedForOthers, loadLocks, type LockRow } from "./serialize-lock";

/** A file locked by someone else refuses changes with 423 (contract: States and transitions). */
export async function assertNotLockedByOther(db: DbOrTx, fileId: number, userId: number): Promise<void> {
  assertLockAllows((await loadLocks(db, [fileId])).get(fileId), userId);
}

/** assertNotLockedByOther with the file's lock already read (null or undefined: unlocked). */
export function assertLockAllows(lock: LockRow | null | undefined, userId: number): void {
  if (isLockedForOthers(lock ?? undefined, userId)) throw new AppError("locked", "This file is locked by another user");
}
