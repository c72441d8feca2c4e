import "server-only";
import type { ReadFolderQuery } from "@/lib/contracts/folders";
import type { AuthedCtx } from "../context";
import { modeOf } from "../present/mode";
import { attachContent, type FolderNode, type Page } from "./folder-content";
import { getFolderOrThrow } from "./get-folder";
import { presentFolders } from "./present-folders";
import { searchFolders } from "./search-folders";

/**
 * GET /folder/(folderId). Browsing a folder shows it; its `content` comes with it (our decision,
 * so one request lists a folder): subfolders the caller may browse and, with the read right, its
 * files. `depth` more levels get their content too. With `recursive` it is a search below it.
 */
export async function readFolder(ctx: AuthedCtx, folderId: number, query: ReadFolderQuery) {
  const { folder, rights } = await getFolderOrThrow(ctx.db, ctx.actor.user, folderId, "browse");
  if (query.recursive) return searchFolders(ctx, query.global ? null : folder, query);
  const mode = modeOf(query);
  const [json] = await presentFolders(ctx, [folder], mode, new Map([[folder.id, rights]]));
  const node: FolderNode = { folder, rights, json };
  await attachContent(ctx, [node], query.depth, { mode, filter: query.filter, order: query }, pageOf(query));
  return json;
}

/** Paging is off unless the caller names `offset_start` or `nb_objects` (api.md defaults then apply). */
export function pageOf(query: Pick<ReadFolderQuery, "offset_start" | "nb_objects">): Page | undefined {
  if (query.offset_start === undefined && query.nb_objects === undefined) return undefined;
  return { offset: query.offset_start ?? 0, limit: query.nb_objects ?? 30 };
}
