import "server-only";
import { and, eq } from "drizzle-orm";
import { tagLinks, TAG_ACTIVITY } from "@/db/schema";
import type { TagElementType } from "@/lib/contracts/tags";
import { writeLog } from "../audit/write-log";
import { logWho, type AuthedCtx } from "../context";
import { AppError } from "../errors";
import { recordTagActivity } from "./record-tag-activity";
import { getVisibleTagOrThrow, tagLogName } from "./tag-access";
import { getTagElementOrThrow } from "./tag-element";
import { seeRight, tagRight } from "./tag-rights";

/** DELETE /tag/(tagId)/(elementId)/(type): takes the tag off (the same rights as putting it on). 204; 404 when it was not there. */
export async function detachTag(ctx: AuthedCtx, tagId: number, type: TagElementType, elementId: number): Promise<void> {
  const user = ctx.actor.user;
  await ctx.db.transaction(async (tx) => {
    const tag = await getVisibleTagOrThrow(tx, user, tagId);
    const element = await getTagElementOrThrow(tx, user, type, elementId, tag.private ? seeRight(type) : tagRight);
    const removed = await tx
      .delete(tagLinks)
      .where(and(eq(tagLinks.tagId, tag.id), eq(tagLinks.targetType, element.type), eq(tagLinks.targetId, element.targetId)))
      .returning({ tagId: tagLinks.tagId });
    if (removed.length === 0) throw new AppError("not_found", `This tag is not on this ${type}`);
    await recordTagActivity(tx, { tagId: tag.id, type: TAG_ACTIVITY.detached, actorId: user.id, data: { target_type: element.type, target_id: element.targetId } });
    await writeLog(tx, logWho(ctx, tx), { type: "ADMLLOG_DELETE", message: `Tag ${tagLogName(tag)} taken off ${element.type} ${element.name}`, objectType: "tag", objectId: tag.id, object: tagLogName(tag) });
  });
}
