import "server-only";
import { stars } from "@/db/schema";
import type { StarType } from "@/lib/contracts/stars";
import type { AuthedCtx } from "../context";
import { getTagElementOrThrow } from "../tags/tag-element";

/**
 * PUT /star/(file|folder)/(id) (issue 29): stars a file (any of its version ids; the star holds the
 * logical file, so it stays on new versions) or a folder the caller may browse; 404 otherwise, as
 * for tags, so a star never tells what exists. Idempotent: a second star changes nothing.
 */
export async function starItem(ctx: AuthedCtx, type: StarType, apiId: number): Promise<void> {
  const user = ctx.actor.user;
  const target = await getTagElementOrThrow(ctx.db, user, type, apiId, "browse");
  await ctx.db.insert(stars).values({ userId: user.id, targetType: type, targetId: target.targetId }).onConflictDoNothing();
}
