import "server-only";
import { tagLinks, TAG_ACTIVITY } from "@/db/schema";
import type { TagElementType, TagResponse } from "@/lib/contracts/tags";
import { writeLog } from "../audit/write-log";
import { logWho, type AuthedCtx } from "../context";
import { presentTags } from "./present-tags";
import { recordTagActivity } from "./record-tag-activity";
import { getVisibleTagOrThrow, tagLogName } from "./tag-access";
import { getTagElementOrThrow } from "./tag-element";
import { seeRight, tagRight } from "./tag-rights";

/**
 * POST /tag/(tagId)/(elementId)/(type) (api.md): puts a tag the caller sees on a file or a folder.
 * A public tag changes what everyone sees of the element: it needs the edit right there. A
 * private tag is the caller's own note: seeing the element is enough. 201 the Tag; 200 when it
 * was already there (nothing recorded).
 */
export async function attachTag(ctx: AuthedCtx, tagId: number, type: TagElementType, elementId: number): Promise<{ tag: TagResponse; created: boolean }> {
  const user = ctx.actor.user;
  return ctx.db.transaction(async (tx) => {
    const tag = await getVisibleTagOrThrow(tx, user, tagId);
    const element = await getTagElementOrThrow(tx, user, type, elementId, tag.private ? seeRight(type) : tagRight);
    const inserted = await tx
      .insert(tagLinks)
      .values({ tagId: tag.id, targetType: element.type, targetId: element.targetId, createdBy: user.id })
      .onConflictDoNothing()
      .returning({ tagId: tagLinks.tagId });
    if (inserted.length > 0) {
      await recordTagActivity(tx, { tagId: tag.id, type: TAG_ACTIVITY.attached, actorId: user.id, data: { target_type: element.type, target_id: element.targetId } });
      await writeLog(tx, logWho(ctx, tx), { type: "ADMLLOG_INSERT", message: `Tag ${tagLogName(tag)} put on ${element.type} ${element.name}`, objectType: "tag", objectId: tag.id, object: tagLogName(tag) });
    }
    return { tag: (await presentTags(tx, [tag]))[0], created: inserted.length > 0 };
  });
}
