import "server-only";
import { and, count, inArray, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/db";
import { tags, type User } from "@/db/schema";
import { idArray } from "../folders/id-array";
import { visibleTags } from "./tag-access";

/** Search conditions on folders and files; false: nothing of that kind can match. */
export type TagMatch = { folder: SQL | false; file: SQL | false };

/**
 * Folder search's `tags` (api.md: every tag must be on a match). A tag the caller does not see
 * (another user's private tag, or none) matches nothing rather than being ignored, which would
 * widen the search, or refused, which would tell that it exists. The condition is one
 * uncorrelated IN over tag_links, read through its primary key (tag, type, target): the matches
 * are found once, however large the tree.
 */
export async function tagMatch(db: DbOrTx, user: Pick<User, "id">, tagIds: number[], columns: { folder: AnyPgColumn; file: AnyPgColumn }): Promise<TagMatch> {
  const ids = [...new Set(tagIds)];
  const [{ seen }] = await db.select({ seen: count() }).from(tags).where(and(inArray(tags.id, ids), visibleTags(user)));
  if (Number(seen) !== ids.length) return { folder: false, file: false };
  const carrying = (type: "file" | "folder") => sql`(
    SELECT l.target_id FROM tag_links l
    WHERE l.tag_id = ANY(${idArray(ids)}) AND l.target_type = ${type}
    GROUP BY l.target_id HAVING count(*) = ${ids.length})`;
  return { folder: sql`${columns.folder} IN ${carrying("folder")}`, file: sql`${columns.file} IN ${carrying("file")}` };
}
