import "server-only";
import type { CountsResponse } from "@/lib/contracts/annotations";
import type { AuthedCtx } from "../context";
import { loadListedRows } from "../rights/listed-rows";
import { countAnnotations, type AnnotationCounts } from "./count-annotations";

/**
 * GET /annotations/counts (beyond the contract): the comment counts of the rows a list view shows,
 * in three queries whatever their number, so a default-mode listing can show comment and unread
 * markers without the cost of full mode (subtree sizes). Files by File id (any version), folders
 * by id; rows the caller may not read, or that do not exist, are left out rather than refused,
 * as a list can hold rows that went away meanwhile. Only targets with comments are answered.
 */
export async function countListedAnnotations(ctx: AuthedCtx, query: { files?: number[]; folders?: number[] }): Promise<CountsResponse> {
  const user = ctx.actor.user;
  const listed = await loadListedRows(ctx, query);
  const readableFiles = listed.files;
  const readableFolders = listed.folders.filter((f) => f.rights?.read);
  const [fileCounts, folderCounts] = await Promise.all([
    countAnnotations(ctx.db, user.id, "file", readableFiles.map((f) => f.fileId)),
    countAnnotations(ctx.db, user.id, "folder", readableFolders.map((f) => f.id)),
  ]);
  return {
    files: keyed(readableFiles.map((f) => [f.versionId, fileCounts.get(f.fileId)])),
    folders: keyed(readableFolders.map((f) => [f.id, folderCounts.get(f.id)])),
  };
}

function keyed(entries: [number, AnnotationCounts | undefined][]): Record<string, AnnotationCounts> {
  return Object.fromEntries(entries.filter((e): e is [number, AnnotationCounts] => e[1] !== undefined && e[1].total > 0).map(([id, c]) => [String(id), c]));
}
