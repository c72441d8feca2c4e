import "server-only";
import { and, eq, or, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { tagCategories, tags, type Tag, type TagCategory, type User } from "@/db/schema";
import { AppError } from "../errors";
import { hasFormatCharacter } from "../files/names";

type Who = Pick<User, "id" | "role">;

/** The tags a user sees: every public tag and their own private ones (api.md: a private tag is seen by its owner alone, administrators included). */
export const visibleTags = (user: Pick<User, "id">): SQL => or(eq(tags.private, false), eq(tags.ownerId, user.id))!;

/**
 * How the audit log names a tag: a public tag by its name, a private one by its id alone. A
 * private tag is seen by its owner alone, administrators included (api.md), and administrators
 * read the log (issue 25, finding 18).
 */
export const tagLogName = (tag: Pick<Tag, "id" | "name" | "private">): string => (tag.private ? `private tag ${tag.id}` : tag.name);

/** A tag the caller sees; another user's private tag is a 404, as an unknown id. */
export async function getVisibleTagOrThrow(db: DbOrTx, user: Who, tagId: number): Promise<Tag> {
  const [tag] = await db.select().from(tags).where(and(eq(tags.id, tagId), visibleTags(user))).limit(1);
  if (!tag) throw new AppError("not_found", "Tag not found");
  return tag;
}

/** A tag the caller may rename or delete: its owner, or an administrator for a public tag. */
export async function getManagedTagOrThrow(db: DbOrTx, user: Who, tagId: number): Promise<Tag> {
  const tag = await getVisibleTagOrThrow(db, user, tagId);
  if (tag.ownerId !== user.id && user.role !== 3) throw new AppError("forbidden", "Only the owner of this tag or an administrator may change it");
  return tag;
}

export async function getCategoryOrThrow(db: DbOrTx, categoryId: number): Promise<TagCategory> {
  const [category] = await db.select().from(tagCategories).where(eq(tagCategories.id, categoryId)).limit(1);
  if (!category) throw new AppError("not_found", "Tag category not found");
  return category;
}

/** Tag and category names: NFC, and nothing that draws nothing or reorders text (the same rule as file names). */
export function checkTagName(raw: string, field = "name"): string {
  const name = raw.normalize("NFC");
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name) || hasFormatCharacter(name)) {
    throw new AppError("invalid_request", "A name may not hold control or invisible format characters", [{ path: field, message: "invalid characters" }]);
  }
  return name;
}

/** A unique violation on a tag or category name, said in words. */
export function nameTaken(error: unknown, what: string): unknown {
  let e: unknown = error;
  for (let depth = 0; e && depth < 4; depth++) {
    if ((e as { code?: unknown }).code === "23505") return new AppError("conflict", `${what} of this name already exists`);
    e = (e as { cause?: unknown }).cause;
  }
  return error;
}
