import "server-only";
import { and, eq, isNull, ne, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { preparedOnce } from "@/db/prepared";
import { fileLocks, fileVersions, files, folders, type FileRow, type FileVersion, type Folder } from "@/db/schema";
import type { LockRow } from "../locks/serialize-lock";
import { sameName } from "./names";

/**
 * SQL: the live files of a folder named `name`, case and normalisation ignored as in the partial
 * unique index on (folder_id, name_key) WHERE deleted_at IS NULL. `exceptId` leaves one file out
 * (a rename keeps its own name free).
 */
export function liveFileNamed(folderId: number, name: string, exceptId?: number): SQL {
  return and(eq(files.folderId, folderId), isNull(files.deletedAt), sameName(files.nameKey, name), exceptId === undefined ? undefined : ne(files.id, exceptId))!;
}

/** The live file of a folder with this name, if any. */
export async function findLiveFileByName(db: DbOrTx, folderId: number, name: string): Promise<FileRow | undefined> {
  const [found] = await db.select().from(files).where(liveFileNamed(folderId, name)).limit(1);
  return found;
}

/**
 * The live file of a folder with this name, if any, with what an upload onto it needs: its lock
 * (null when unlocked) and the number of its last version (trashed ones included).
 */
export async function findLiveFileForUpload(db: DbOrTx, folderId: number, name: string): Promise<{ file: FileRow; lock: LockRow | null; lastNumber: number } | undefined> {
  const [found] = await db
    .select({ file: files, lock: fileLocks, lastNumber: sql<number>`(SELECT coalesce(max(v.number), 0) FROM ${fileVersions} v WHERE v.file_id = ${files.id})`.mapWith(Number) })
    .from(files)
    .leftJoin(fileLocks, eq(fileLocks.fileId, files.id))
    .where(liveFileNamed(folderId, name))
    .limit(1);
  return found;
}

/** The id of the live file of a folder with this name (other than `exceptId`), or null. */
export async function findLiveFileIdByName(db: DbOrTx, folderId: number, name: string, exceptId?: number): Promise<number | null> {
  const [found] = await db.select({ id: files.id }).from(files).where(liveFileNamed(folderId, name, exceptId)).limit(1);
  return found?.id ?? null;
}

/** The live file of a folder with this name and its current version, if any. */
export async function findLiveFileWithVersionByName(db: DbOrTx, folderId: number, name: string): Promise<{ file: FileRow; version: FileVersion } | undefined> {
  const [found] = await db
    .select({ file: files, version: fileVersions })
    .from(files)
    .innerJoin(fileVersions, eq(fileVersions.id, files.currentVersionId))
    .where(liveFileNamed(folderId, name))
    .limit(1);
  return found;
}

/**
 * A live version (the contract's File id) with its file and folder, all three live; undefined
 * when any of them is trashed or gone. Rights are the caller's business.
 */
export async function findLiveVersion(db: DbOrTx, versionId: number): Promise<{ version: FileVersion; file: FileRow; folder: Folder } | undefined> {
  const [found] = await liveVersionStatement(db).execute({ versionId });
  return found;
}

// Behind most file routes (getFileOrThrow): built and planned once.
const liveVersionStatement = preparedOnce((db) =>
  db
    .select({ version: fileVersions, file: files, folder: folders })
    .from(fileVersions)
    .innerJoin(files, eq(files.id, fileVersions.fileId))
    .innerJoin(folders, eq(folders.id, files.folderId))
    .where(and(eq(fileVersions.id, sql.placeholder("versionId")), isNull(fileVersions.deletedAt), isNull(files.deletedAt), isNull(folders.deletedAt)))
    .limit(1)
    .prepare("live_version"),
);

/** Points a file at its newest live version (after versions were trashed, restored or purged). */
export async function refreshCurrentVersion(db: DbOrTx, fileId: number) {
  await db.execute(sql`
    UPDATE files SET current_version_id = (
      SELECT id FROM file_versions WHERE file_id = ${fileId} AND deleted_at IS NULL ORDER BY number DESC LIMIT 1)
    WHERE id = ${fileId}`);
}
