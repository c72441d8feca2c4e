import "server-only";
import { tagCategories } from "@/db/schema";
import type { CategoryResponse, CreateCategoryInput } from "@/lib/contracts/tags";
import { writeLog } from "../audit/write-log";
import { logWho, type AuthedCtx } from "../context";
import { presentCategories } from "./present-tags";
import { checkTagName, nameTaken } from "./tag-access";

/** The colour of a category made without one. */
export const DEFAULT_CATEGORY_COLOR = "#2f5bd3";

/** POST /tag/category (administrators): a platform-wide category with its colour. 201; a name taken is a 409. */
export async function createCategory(ctx: AuthedCtx, input: CreateCategoryInput): Promise<CategoryResponse> {
  const name = checkTagName(input.name);
  try {
    return await ctx.db.transaction(async (tx) => {
      const [category] = await tx.insert(tagCategories).values({ name, color: input.color ?? DEFAULT_CATEGORY_COLOR }).returning();
      await writeLog(tx, logWho(ctx, tx), { type: "ADMLLOG_INSERT", message: "Tag category created", objectType: "tag_category", objectId: category.id, object: category.name });
      return (await presentCategories(tx, ctx.actor.user, [category]))[0];
    });
  } catch (error) {
    throw nameTaken(error, "A tag category");
  }
}
