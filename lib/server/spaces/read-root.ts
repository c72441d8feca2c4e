import "server-only";
import type { ReadFolderQuery } from "@/lib/contracts/folders";
import type { AuthedCtx } from "../context";
import { notFound } from "../errors";
import { attachContent, levelsBelowList, toNodes, type FolderNode } from "../folders/folder-content";
import type { FolderJson } from "../folders/present-folders";
import { readFolder } from "../folders/read-folder";
import { modeOf } from "../present/mode";
import { findCompanyRoots, findPrivateRoot, findSharedRoots, type SpaceEntry } from "./find-spaces";

export type SpaceType = "private" | "company" | "shared";

/**
 * GET /root/(type). private: the caller's private root read as GET /folder does (with its
 * content). company and shared: a pseudo folder (id 0) whose content.folders holds the company
 * folders the caller may browse, or the top-most folders shared with them; `depth` n also gives
 * those folders content n levels down.
 */
export async function readRoot(ctx: AuthedCtx, type: SpaceType, query: ReadFolderQuery) {
  const user = ctx.actor.user;
  if (type === "private") {
    const own = await findPrivateRoot(ctx.db, user);
    if (!own) throw notFound("Private space");
    return readFolder(ctx, own.folder.id, query);
  }
  const entries = type === "company" ? await findCompanyRoots(ctx.db, user) : await findSharedRoots(ctx.db, user);
  // Only administrators create company top folders (parent_id 0); nobody creates in "Shared".
  const nodes = await spaceNodes(ctx, entries, query);
  return pseudoFolder(type === "company" ? "Company" : "Shared", type === "company" && user.role === 3, nodes.map((n) => n.json));
}

/** The folders of a space, with content when `depth` asks for it. */
export async function spaceNodes(ctx: AuthedCtx, entries: SpaceEntry[], query: ReadFolderQuery): Promise<FolderNode[]> {
  const mode = modeOf(query);
  const nodes = await toNodes(ctx, entries, mode);
  const levels = levelsBelowList(query.depth);
  if (levels !== null) await attachContent(ctx, nodes, levels, { mode, filter: query.filter });
  return nodes;
}

function pseudoFolder(name: string, canWrite: boolean, children: FolderJson[]): FolderJson {
  return {
    id: 0,
    name,
    parent_id: 0,
    can_read: true,
    can_download: false,
    can_write: canWrite,
    can_edit: false,
    can_delete: false,
    can_share: false,
    content: { folders: children, files: [] },
  };
}
