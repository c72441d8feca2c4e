import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { fileVersions, files, folders, type User } from "@/db/schema";
import type { TagElementType } from "@/lib/contracts/tags";
import { AppError } from "../errors";
import { resolveFolderRights } from "../rights/resolve-rights";
import type { RightName } from "../rights/rights";

/** What a tag is put on: files by their logical id (tags stay on new versions), folders by id. */
export type TagElement = { type: TagElementType; targetId: number; name: string };

/**
 * The live element the client names (a file by any of its version ids) when the caller may
 * browse it: otherwise a 404, so that tags never reveal what exists where the caller cannot look
 * (api.md). Lacking `need` once it is visible is a 403. A file is visible with the read right on
 * its folder (listings show files only then); a folder with browse.
 */
export async function getTagElementOrThrow(db: DbOrTx, user: Pick<User, "id" | "role">, type: TagElementType, apiId: number, need: RightName): Promise<TagElement> {
  const found =
    type === "folder"
      ? (await db.select({ targetId: folders.id, folderId: folders.id, name: folders.name }).from(folders).where(and(eq(folders.id, apiId), isNull(folders.deletedAt))).limit(1))[0]
      : (
          await db
            .select({ targetId: files.id, folderId: files.folderId, name: files.name })
            .from(fileVersions)
            .innerJoin(files, eq(files.id, fileVersions.fileId))
            .innerJoin(folders, eq(folders.id, files.folderId))
            .where(and(eq(fileVersions.id, apiId), isNull(fileVersions.deletedAt), isNull(files.deletedAt), isNull(folders.deletedAt)))
            .limit(1)
        )[0];
  const what = type === "folder" ? "Folder" : "File";
  if (!found) throw new AppError("not_found", `${what} not found`);
  const rights = await resolveFolderRights(db, user, found.folderId);
  if (!(type === "folder" ? rights.browse : rights.read)) throw new AppError("not_found", `${what} not found`);
  if (!rights[need]) throw new AppError("forbidden", `You lack the ${need} right on this ${type === "folder" ? "folder" : "file's folder"}`);
  return { type, targetId: found.targetId, name: found.name };
}
