import "server-only";
import type { ReadFolderQuery } from "@/lib/contracts/folders";
import type { AuthedCtx } from "../context";
import { attachContent, levelsBelowList, toNodes } from "../folders/folder-content";
import { modeOf } from "../present/mode";
import { findAllRoots } from "./find-spaces";

/**
 * GET /folders: the caller's roots as Folder[] — their private space, the company folders they may
 * browse, then the top-most folders shared with them. The list is the first level: with the
 * default depth 0 the roots come without content; depth n adds content n levels down.
 */
export async function listRootFolders(ctx: AuthedCtx, query: ReadFolderQuery) {
  const mode = modeOf(query);
  const roots = await findAllRoots(ctx.db, ctx.actor.user);
  const nodes = await toNodes(ctx, roots.map((r) => r.entry), mode);
  const levels = levelsBelowList(query.depth);
  if (levels !== null) await attachContent(ctx, nodes, levels, { mode, filter: query.filter });
  return nodes.map((n) => n.json);
}
