import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { fileVersions, type FileRow, type FileVersion, type Folder, type User } from "@/db/schema";
import { AppError } from "../errors";
import { findLiveVersion } from "./live-files";
import { resolveFolderRights } from "../rights/resolve-rights";
import type { RightName, Rights } from "../rights/rights";

export type FileAccess = { file: FileRow; version: FileVersion; folder: Folder; rights: Rights };

/**
 * A live file version (the contract's File id) with the user's rights in its folder.
 * `latest` swaps an older version for the newest one. The contract answers 403 when the parent
 * folder cannot be browsed (rest-interface: read file), 404 when nothing exists.
 */
export async function getFileOrThrow(
  db: DbOrTx,
  user: Pick<User, "id" | "role">,
  versionId: number,
  need: RightName = "browse",
  options: { latest?: boolean } = {},
): Promise<FileAccess> {
  const row = await findLiveVersion(db, versionId);
  if (!row) throw new AppError("not_found", "File not found");
  const rights = await resolveFolderRights(db, user, row.folder.id);
  if (!rights.browse) throw new AppError("forbidden", "You may not browse the folder of this file");
  if (!rights[need]) throw new AppError("forbidden", `You lack the ${need} right on this file's folder`);
  let version = row.version;
  if (options.latest && row.file.currentVersionId && row.file.currentVersionId !== version.id) {
    const [latest] = await db.select().from(fileVersions).where(eq(fileVersions.id, row.file.currentVersionId));
    if (latest) version = latest;
  }
  return { file: row.file, version, folder: row.folder, rights };
}
