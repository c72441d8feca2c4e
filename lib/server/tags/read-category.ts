import "server-only";
import type { CategoryResponse } from "@/lib/contracts/tags";
import type { AuthedCtx } from "../context";
import { presentCategories } from "./present-tags";
import { getCategoryOrThrow } from "./tag-access";

/** GET /tag/category/(id): a category with the tags the caller sees in it. */
export async function readCategory(ctx: AuthedCtx, categoryId: number): Promise<CategoryResponse> {
  return (await presentCategories(ctx.db, ctx.actor.user, [await getCategoryOrThrow(ctx.db, categoryId)], true))[0];
}
