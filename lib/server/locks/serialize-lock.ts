import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { fileLocks, type FileRow } from "@/db/schema";
import { idArray } from "../folders/id-array";
import { iso } from "../present/envelope";
import { loadOwnerNames } from "../users/owner-names";

export type LockJson = {
  file: number;
  file_guid: string;
  owner: string;
  owner_id: string;
  locked: boolean;
  writeable: boolean;
  readable: boolean;
  date: string | null;
};

export type LockRow = typeof fileLocks.$inferSelect;

/** The Lock of each file (api.md: `file` is the numeric id of the current version; `file_guid` the GUID). */
export async function loadLocks(db: DbOrTx, fileIds: number[]): Promise<Map<number, LockRow>> {
  if (fileIds.length === 0) return new Map();
  // One array value rather than one parameter per id: listings pass thousands of files.
  const found = await db.select().from(fileLocks).where(sql`${fileLocks.fileId} = ANY(${idArray(fileIds)})`);
  return new Map(found.map((l) => [l.fileId, l]));
}

export function serializeLock(file: Pick<FileRow, "currentVersionId" | "guid">, lock: LockRow, viewerId: number, ownerName: string): LockJson {
  return {
    file: file.currentVersionId ?? 0,
    file_guid: file.guid,
    owner: ownerName,
    owner_id: String(lock.ownerId),
    locked: true,
    writeable: lock.ownerId === viewerId,
    readable: true,
    date: iso(lock.createdAt),
  };
}

export async function presentLock(db: DbOrTx, file: Pick<FileRow, "currentVersionId" | "guid">, lock: LockRow, viewerId: number) {
  const names = await loadOwnerNames(db, [lock.ownerId]);
  return serializeLock(file, lock, viewerId, names.get(lock.ownerId) ?? "");
}

/** A file locked by someone else refuses changes with 423 (contract: States and transitions). */
export function isLockedForOthers(lock: LockRow | undefined, userId: number): boolean {
  return Boolean(lock && lock.ownerId !== userId);
}
