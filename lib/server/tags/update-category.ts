import "server-only";
import { eq } from "drizzle-orm";
import { tagCategories } from "@/db/schema";
import type { CategoryResponse, UpdateCategoryInput } from "@/lib/contracts/tags";
import { writeLog } from "../audit/write-log";
import { logWho, type AuthedCtx } from "../context";
import { presentCategories } from "./present-tags";
import { checkTagName, getCategoryOrThrow, nameTaken } from "./tag-access";

/** PUT /tag/category/(id) (administrators): rename or recolour; its tags take the new colour. */
export async function updateCategory(ctx: AuthedCtx, categoryId: number, input: UpdateCategoryInput): Promise<CategoryResponse> {
  const name = input.name === undefined ? undefined : checkTagName(input.name);
  try {
    return await ctx.db.transaction(async (tx) => {
      await getCategoryOrThrow(tx, categoryId);
      const [category] = await tx
        .update(tagCategories)
        .set({ ...(name !== undefined ? { name } : {}), ...(input.color !== undefined ? { color: input.color } : {}) })
        .where(eq(tagCategories.id, categoryId))
        .returning();
      await writeLog(tx, logWho(ctx, tx), { type: "ADMLLOG_UPDATE", message: "Tag category updated", objectType: "tag_category", objectId: category.id, object: category.name });
      return (await presentCategories(tx, ctx.actor.user, [category], true))[0];
    });
  } catch (error) {
    throw nameTaken(error, "A tag category");
  }
}
