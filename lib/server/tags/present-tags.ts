import "server-only";
import { and, count, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { tagCategories, tags, type Tag, type TagCategory, type User } from "@/db/schema";
import type { CategoryResponse, TagResponse } from "@/lib/contracts/tags";
import { visibleTags } from "./tag-access";

/** The colour of a tag without a category. */
export const DEFAULT_TAG_COLOR = "#6b7280";

/** The contract's Tag, with its category's colour; categories are loaded in one query. */
export async function presentTags(db: DbOrTx, list: Tag[]): Promise<TagResponse[]> {
  const categoryIds = [...new Set(list.map((t) => t.categoryId).filter((id): id is number => id !== null))];
  const found = categoryIds.length ? await db.select({ id: tagCategories.id, color: tagCategories.color }).from(tagCategories).where(inArray(tagCategories.id, categoryIds)) : [];
  const colors = new Map(found.map((c) => [c.id, c.color]));
  return list.map((tag) => presentTag(tag, tag.categoryId === null ? undefined : colors.get(tag.categoryId)));
}

export function presentTag(tag: Tag, categoryColor?: string): TagResponse {
  return {
    id: tag.id,
    category_id: tag.categoryId,
    name: tag.name,
    key: tag.nameKey,
    color: categoryColor ?? DEFAULT_TAG_COLOR,
    owner_id: String(tag.ownerId),
    private: tag.private,
  };
}

/**
 * The contract's Tag category: `primary_color` is the colour itself, `secondary_color` and
 * `tertiary_color` lighter shades of it (for borders and backgrounds). `nb_tags` counts the tags
 * the caller sees; `withTags` adds them.
 */
export async function presentCategories(db: DbOrTx, user: Pick<User, "id">, list: TagCategory[], withTags = false): Promise<CategoryResponse[]> {
  if (list.length === 0) return [];
  const ids = list.map((c) => c.id);
  const where = and(inArray(tags.categoryId, ids), visibleTags(user));
  const [counts, members] = await Promise.all([
    db.select({ id: tags.categoryId, n: count() }).from(tags).where(where).groupBy(tags.categoryId),
    withTags ? db.select().from(tags).where(where).orderBy(tags.nameKey, tags.id) : Promise.resolve([] as Tag[]),
  ]);
  const byCategory = new Map(counts.map((c) => [c.id, Number(c.n)]));
  return list.map((category) => ({
    id: category.id,
    name: category.name,
    color: category.color,
    primary_color: category.color,
    secondary_color: mixWithWhite(category.color, 0.45),
    tertiary_color: mixWithWhite(category.color, 0.85),
    nb_tags: byCategory.get(category.id) ?? 0,
    ...(withTags ? { tags: members.filter((t) => t.categoryId === category.id).map((t) => presentTag(t, category.color)) } : {}),
  }));
}

/** `#rrggbb` moved `share` of the way to white. */
export function mixWithWhite(hex: string, share: number): string {
  const channel = (i: number) => {
    const value = parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16);
    return Math.round(value + (255 - value) * share)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${channel(0)}${channel(1)}${channel(2)}`;
}

export async function presentTagById(db: DbOrTx, tagId: number): Promise<TagResponse> {
  const [tag] = await db.select().from(tags).where(eq(tags.id, tagId));
  return (await presentTags(db, [tag]))[0];
}
