import "server-only";
import { and, count, eq, inArray } from "drizzle-orm";
import { tagLinks, tags } from "@/db/schema";
import type { TagElementType } from "@/lib/contracts/tags";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { presentTags } from "./present-tags";
import { visibleTags } from "./tag-access";
import { getTagElementOrThrow } from "./tag-element";
import { seeRight } from "./tag-rights";

/** GET /tags/(elementId)/(type): the tags on an element the caller sees (public ones and their own private ones), by name. */
export async function listElementTags(ctx: AuthedCtx, type: TagElementType, elementId: number, page: { offset_start: number; nb_objects: number }) {
  const user = ctx.actor.user;
  const element = await getTagElementOrThrow(ctx.db, user, type, elementId, seeRight(type));
  const where = and(
    visibleTags(user),
    inArray(tags.id, ctx.db.select({ id: tagLinks.tagId }).from(tagLinks).where(and(eq(tagLinks.targetType, element.type), eq(tagLinks.targetId, element.targetId)))),
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(tags).where(where).orderBy(tags.nameKey, tags.id).offset(page.offset_start).limit(page.nb_objects),
    ctx.db.select({ total: count() }).from(tags).where(where),
  ]);
  return envelope(await presentTags(ctx.db, rows), page.offset_start, Number(total));
}
