import "server-only";
import type { Ctx } from "../context";
import { envelope } from "../present/envelope";
import type { ShareVisit } from "../links/resolve-link-visitor";
import { getSharedFolderOrThrow, loadFolderItems, loadRootItems, presentShareItems } from "./share-items";

type Paging = { offset_start: number; nb_objects: number };

/**
 * GET /share/content/(key)[/(folderId)]: the share's roots, or the content of a folder at or
 * below a shared folder (404 for anything else, including the owner's other folders), as an
 * envelope of Share content, folders first. `folder` names where the visitor is; its parent_id
 * is 0 at a root, so the way up ends at the share.
 */
export async function shareContent(ctx: Ctx, { share }: ShareVisit, folderId: number | null, paging: Paging) {
  if (folderId === null) {
    // A share has a handful of roots: paged in memory.
    const roots = await loadRootItems(ctx.db, share);
    const all = await presentShareItems(ctx.db, share, roots, true);
    return { ...envelope(all.slice(paging.offset_start, paging.offset_start + paging.nb_objects), paging.offset_start, all.length), folder: null };
  }
  const found = await getSharedFolderOrThrow(ctx.db, share, folderId);
  const page = await loadFolderItems(ctx.db, found.folder.id, paging);
  const folder = { id: found.folder.id, name: found.folder.name, parent_id: found.isRoot ? 0 : (found.folder.parentId ?? 0) };
  return { ...envelope(await presentShareItems(ctx.db, share, page, false), paging.offset_start, page.total), folder };
}
