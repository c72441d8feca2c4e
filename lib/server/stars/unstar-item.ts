import "server-only";
import { and, eq } from "drizzle-orm";
import { fileVersions, stars } from "@/db/schema";
import type { StarType } from "@/lib/contracts/stars";
import type { AuthedCtx } from "../context";

/**
 * DELETE /star/(file|folder)/(id) (issue 29): takes the caller's star off, idempotent. No right is
 * asked: a user who lost access (or whose file went to the trash) may still clear their list, and
 * the answer is 204 whatever existed, so it tells nothing.
 */
export async function unstarItem(ctx: AuthedCtx, type: StarType, apiId: number): Promise<void> {
  const targetId =
    type === "folder" ? apiId : (await ctx.db.select({ fileId: fileVersions.fileId }).from(fileVersions).where(eq(fileVersions.id, apiId)).limit(1))[0]?.fileId;
  if (targetId === undefined) return;
  await ctx.db.delete(stars).where(and(eq(stars.userId, ctx.actor.user.id), eq(stars.targetType, type), eq(stars.targetId, targetId)));
}
