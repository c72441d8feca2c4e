import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { tagLinks, tags, type Tag, type User } from "@/db/schema";
import type { ListedTagsResponse, TagResponse } from "@/lib/contracts/tags";
import type { AuthedCtx } from "../context";
import { loadListedRows } from "../rights/listed-rows";
import { presentTags } from "./present-tags";
import { visibleTags } from "./tag-access";

/**
 * GET /tags/listed (beyond the contract): the tags of the rows a list view shows, in a bounded
 * number of queries, for the chips of the file list. Files by File id (any version), folders by
 * id; rows the caller may not see are left out rather than refused (a list can hold rows that
 * went away meanwhile), and so are rows without tags.
 */
export async function listListedTags(ctx: AuthedCtx, query: { files?: number[]; folders?: number[] }): Promise<ListedTagsResponse> {
  const user = ctx.actor.user;
  const listed = await loadListedRows(ctx, query);
  const seenFiles = listed.files;
  const seenFolders = listed.folders.filter((f) => f.rights?.browse);
  const [fileTags, folderTags] = await Promise.all([
    loadElementTags(ctx.db, user, "file", seenFiles.map((f) => f.fileId)),
    loadElementTags(ctx.db, user, "folder", seenFolders.map((f) => f.id)),
  ]);
  const keyed = (entries: [number, TagResponse[] | undefined][]) =>
    Object.fromEntries(entries.filter((e): e is [number, TagResponse[]] => Boolean(e[1]?.length)).map(([id, list]) => [String(id), list]));
  return {
    files: keyed(seenFiles.map((f) => [f.versionId, fileTags.get(f.fileId)])),
    folders: keyed(seenFolders.map((f) => [f.id, folderTags.get(f.id)])),
  };
}

/** The visible tags of several elements of one type (stored ids), by name, in two queries. */
export async function loadElementTags(db: DbOrTx, user: Pick<User, "id">, type: "file" | "folder", targetIds: number[]): Promise<Map<number, TagResponse[]>> {
  const out = new Map<number, TagResponse[]>();
  if (targetIds.length === 0) return out;
  const found = await db
    .select({ targetId: tagLinks.targetId, tag: tags })
    .from(tagLinks)
    .innerJoin(tags, eq(tags.id, tagLinks.tagId))
    .where(and(eq(tagLinks.targetType, type), inArray(tagLinks.targetId, [...new Set(targetIds)]), visibleTags(user)))
    .orderBy(tags.nameKey, tags.id);
  const presented = await presentTags(db, found.map((f) => f.tag as Tag));
  found.forEach((f, i) => {
    const list = out.get(f.targetId) ?? [];
    list.push(presented[i]);
    out.set(f.targetId, list);
  });
  return out;
}
