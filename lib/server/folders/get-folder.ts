import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { folders, type Folder, type User } from "@/db/schema";
import { AppError } from "../errors";
import { resolveFolderRights } from "../rights/resolve-rights";
import type { RightName, Rights } from "../rights/rights";

export type FolderAccess = { folder: Folder; rights: Rights };

/**
 * A live folder the user may browse, with their rights on it. Unknown, trashed or unbrowsable
 * folders are a 404 (api.md: never leak what cannot be browsed); lacking `need` is a 403.
 */
export async function getFolderOrThrow(db: DbOrTx, user: Pick<User, "id" | "role">, folderId: number, need: RightName = "browse"): Promise<FolderAccess> {
  // The row and the rights are asked together (one round trip; pipelined inside a transaction):
  // the rights of a folder that turns out not to exist are simply not used.
  const [[folder], rights] = await Promise.all([
    db.select().from(folders).where(and(eq(folders.id, folderId), isNull(folders.deletedAt))).limit(1),
    resolveFolderRights(db, user, folderId),
  ]);
  if (!folder) throw new AppError("not_found", "Folder not found");
  if (!rights.browse) throw new AppError("not_found", "Folder not found");
  if (!rights[need]) throw new AppError("forbidden", `You lack the ${need} right on this folder`);
  return { folder, rights };
}

/** Locks the folder row for the rest of the transaction (moves, quota checks). */
export async function lockFolderRow(tx: DbOrTx, folderId: number) {
  await tx.select({ id: folders.id }).from(folders).where(eq(folders.id, folderId)).for("update");
}
