import "server-only";
import { and, count, eq, sql } from "drizzle-orm";
import { tags } from "@/db/schema";
import type { ListTagsQuery } from "@/lib/contracts/tags";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { presentTags } from "./present-tags";
import { visibleTags } from "./tag-access";

/** GET /tags: the tags the caller sees (public ones and their private ones), by name, in the envelope; `category_id` and `search` narrow it. */
export async function listTags(ctx: AuthedCtx, query: ListTagsQuery) {
  const words = query.search?.trim();
  const where = and(
    visibleTags(ctx.actor.user),
    query.category_id ? eq(tags.categoryId, query.category_id) : undefined,
    words ? sql`${tags.nameKey} LIKE lower(normalize(${`%${words.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`}, NFC))` : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(tags).where(where).orderBy(tags.nameKey, tags.id).offset(query.offset_start).limit(query.nb_objects),
    ctx.db.select({ total: count() }).from(tags).where(where),
  ]);
  return envelope(await presentTags(ctx.db, rows), query.offset_start, Number(total));
}
