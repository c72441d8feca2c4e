import "server-only";
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { folders, type Folder } from "@/db/schema";
import { sameName } from "../files/names";

/**
 * Serialises the changes that could give one name twice in one parent (create, rename, move,
 * copy), so the second one sees the first's folder instead of failing on the unique index.
 * Top-level company folders (parent 0) have no unique index: this lock is their only guard.
 */
export async function lockFolderName(db: DbOrTx, parentId: number | null, name: string) {
  await db.execute(sql`SELECT pg_advisory_xact_lock(${parentId ?? 0}::int, hashtext(lower(normalize(${name}, NFC))))`);
}

/** The live folder named `name` (case-insensitive, NFC) in a parent; null parent = company top level. */
export async function findLiveChildFolder(db: DbOrTx, parentId: number | null, name: string, exceptId?: number): Promise<Folder | undefined> {
  const [found] = await db
    .select()
    .from(folders)
    .where(
      and(
        parentId === null ? and(isNull(folders.parentId), eq(folders.space, "company")) : eq(folders.parentId, parentId),
        isNull(folders.deletedAt),
        sameName(folders.nameKey, name),
        exceptId === undefined ? undefined : ne(folders.id, exceptId),
      ),
    )
    .limit(1);
  return found;
}

/** True for a user's private space root, which must stay a top-level folder of its owner. */
export const isPrivateRoot = (folder: Pick<Folder, "parentId" | "space">) => folder.parentId === null && folder.space === "private";
