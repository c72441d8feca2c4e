import "server-only";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { fileVersions, files, folders } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { resolveRights } from "./resolve-rights";

export type ListedFile = { versionId: number; fileId: number; folderId: number };

/**
 * The live rows a list view asks about (files by File id, any version; folders by id) and the
 * caller's rights on the folders involved, in three queries whatever their number. Rows that went
 * away are left out; which right a row needs is the caller's choice.
 */
export async function loadListedRows(ctx: AuthedCtx, query: { files?: number[]; folders?: number[] }) {
  const versionIds = query.files ?? [];
  const folderIds = query.folders ?? [];
  const [fileRows, folderRows] = await Promise.all([
    versionIds.length === 0
      ? []
      : ctx.db
          .select({ versionId: fileVersions.id, fileId: files.id, folderId: files.folderId })
          .from(fileVersions)
          .innerJoin(files, eq(files.id, fileVersions.fileId))
          .where(and(inArray(fileVersions.id, versionIds), isNull(files.deletedAt))),
    folderIds.length === 0 ? [] : ctx.db.select({ id: folders.id }).from(folders).where(and(inArray(folders.id, folderIds), isNull(folders.deletedAt))),
  ]);
  const rights = await resolveRights(ctx.db, ctx.actor.user, [...new Set([...fileRows.map((f) => f.folderId), ...folderRows.map((f) => f.id)])]);
  return {
    files: fileRows.filter((f) => rights.get(f.folderId)?.read),
    /** The folders with the rights the caller has on each, to filter on read or browse. */
    folders: folderRows.map((f) => ({ id: f.id, rights: rights.get(f.id) })),
  };
}
