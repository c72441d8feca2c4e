import "server-only";
import { eq } from "drizzle-orm";
import { tags, TAG_ACTIVITY } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import { logWho, type AuthedCtx } from "../context";
import { recordTagActivity } from "./record-tag-activity";
import { getManagedTagOrThrow, tagLogName } from "./tag-access";

/** DELETE /tag/(id): the tag leaves every element it was on; its owner, or an administrator for a public tag. 204. */
export async function deleteTag(ctx: AuthedCtx, tagId: number): Promise<void> {
  const user = ctx.actor.user;
  await ctx.db.transaction(async (tx) => {
    const tag = await getManagedTagOrThrow(tx, user, tagId);
    await tx.delete(tags).where(eq(tags.id, tag.id));
    await recordTagActivity(tx, { tagId: tag.id, type: TAG_ACTIVITY.deleted, actorId: user.id, data: { name: tag.name } });
    await writeLog(tx, logWho(ctx, tx), { type: "ADMLLOG_DELETE", message: "Tag deleted", objectType: "tag", objectId: tag.id, object: tagLogName(tag) });
  });
}
