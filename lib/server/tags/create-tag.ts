import "server-only";
import { tags, TAG_ACTIVITY } from "@/db/schema";
import type { CreateTagInput, TagResponse } from "@/lib/contracts/tags";
import { writeLog } from "../audit/write-log";
import { logWho, type AuthedCtx } from "../context";
import { presentTags } from "./present-tags";
import { recordTagActivity } from "./record-tag-activity";
import { checkTagName, getCategoryOrThrow, nameTaken, tagLogName } from "./tag-access";

/** POST /tag (api.md): any user makes a tag, public or private (seen by its owner alone). 201 Tag; a name taken is a 409. */
export async function createTag(ctx: AuthedCtx, input: CreateTagInput): Promise<TagResponse> {
  const user = ctx.actor.user;
  const name = checkTagName(input.name);
  try {
    return await ctx.db.transaction(async (tx) => {
      if (input.category_id) await getCategoryOrThrow(tx, input.category_id);
      const [tag] = await tx
        .insert(tags)
        .values({ name, categoryId: input.category_id ?? null, ownerId: user.id, private: input.private ?? false })
        .returning();
      await recordTagActivity(tx, { tagId: tag.id, type: TAG_ACTIVITY.created, actorId: user.id });
      await writeLog(tx, logWho(ctx, tx), { type: "ADMLLOG_INSERT", message: `Tag created${tag.private ? " (private)" : ""}`, objectType: "tag", objectId: tag.id, object: tagLogName(tag) });
      return (await presentTags(tx, [tag]))[0];
    });
  } catch (error) {
    throw nameTaken(error, input.private ? "One of your private tags" : "A tag");
  }
}
