import "server-only";
import type { ReadFolderQuery } from "@/lib/contracts/folders";
import type { AuthedCtx } from "../context";
import { attachContent, levelsBelowList, toNodes } from "../folders/folder-content";
import { modeOf } from "../present/mode";
import { findPrivateRoot, findSharedRoots } from "./find-spaces";
import { spaceNodes } from "./read-root";

export type PortalFilter = "me" | "shared" | "all";

/**
 * GET /root/portal/(filter), our reading of the portal: Folder[] of the folders a home page shows.
 * me: the subfolders of the caller's private space; shared: the top-most folders shared with the
 * caller (as GET /root/shared); all: both, private ones first. `depth` n adds content n levels down.
 */
export async function readPortal(ctx: AuthedCtx, filter: PortalFilter, query: ReadFolderQuery) {
  const mode = modeOf(query);
  const mine = [];
  if (filter !== "shared") {
    const own = await findPrivateRoot(ctx.db, ctx.actor.user);
    if (own) {
      const [root] = await toNodes(ctx, [own], "light");
      const children = await attachContent(ctx, [root], 0, { mode, filter: 1 });
      const levels = levelsBelowList(query.depth);
      if (levels !== null) await attachContent(ctx, children, levels, { mode, filter: query.filter });
      mine.push(...children.map((c) => c.json));
    }
  }
  const shared = filter === "me" ? [] : (await spaceNodes(ctx, await findSharedRoots(ctx.db, ctx.actor.user), query)).map((n) => n.json);
  return [...mine, ...shared];
}
