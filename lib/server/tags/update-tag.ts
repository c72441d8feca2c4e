import "server-only";
import { eq } from "drizzle-orm";
import { tags, TAG_ACTIVITY } from "@/db/schema";
import type { TagResponse, UpdateTagInput } from "@/lib/contracts/tags";
import { writeLog } from "../audit/write-log";
import { logWho, type AuthedCtx } from "../context";
import { presentTags } from "./present-tags";
import { recordTagActivity } from "./record-tag-activity";
import { checkTagName, getCategoryOrThrow, getManagedTagOrThrow, nameTaken, tagLogName } from "./tag-access";

/** PUT /tag/(id): rename (activity 2) or change the category; its owner, or an administrator for a public tag. */
export async function updateTag(ctx: AuthedCtx, tagId: number, input: UpdateTagInput): Promise<TagResponse> {
  const user = ctx.actor.user;
  const name = input.name === undefined ? undefined : checkTagName(input.name);
  try {
    return await ctx.db.transaction(async (tx) => {
      const tag = await getManagedTagOrThrow(tx, user, tagId);
      if (input.category_id) await getCategoryOrThrow(tx, input.category_id);
      const [updated] = await tx
        .update(tags)
        .set({ ...(name !== undefined ? { name } : {}), ...(input.category_id !== undefined ? { categoryId: input.category_id } : {}) })
        .where(eq(tags.id, tag.id))
        .returning();
      if (name !== undefined && name !== tag.name) {
        await recordTagActivity(tx, { tagId: tag.id, type: TAG_ACTIVITY.renamed, actorId: user.id, data: { old_name: tag.name, name } });
      }
      await writeLog(tx, logWho(ctx, tx), { type: "ADMLLOG_UPDATE", message: "Tag updated", objectType: "tag", objectId: tag.id, object: tagLogName(updated) });
      return (await presentTags(tx, [updated]))[0];
    });
  } catch (error) {
    throw nameTaken(error, "A tag");
  }
}
