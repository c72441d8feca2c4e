import "server-only";
import { eq } from "drizzle-orm";
import { tagCategories } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import { logWho, type AuthedCtx } from "../context";
import { getCategoryOrThrow } from "./tag-access";

/** DELETE /tag/category/(id) (administrators): its tags stay, without a category. 204. */
export async function deleteCategory(ctx: AuthedCtx, categoryId: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const category = await getCategoryOrThrow(tx, categoryId);
    await tx.delete(tagCategories).where(eq(tagCategories.id, category.id));
    await writeLog(tx, logWho(ctx, tx), { type: "ADMLLOG_DELETE", message: "Tag category deleted", objectType: "tag_category", objectId: category.id, object: category.name });
  });
}
