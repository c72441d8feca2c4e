import "server-only";
import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import { annotationReads, annotations } from "@/db/schema";
import type { TargetType } from "@/lib/contracts/annotations";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { getTargetOrThrow } from "./annotation-target";
import { presentAnnotations } from "./present-annotations";

/**
 * GET /annotations/(targetId)/(type): the target's annotations, oldest first (threads read in
 * order), in the envelope. Listing marks them read for the caller.
 */
export async function listAnnotations(ctx: AuthedCtx, type: TargetType, apiId: number, page: { offset: number; limit: number }) {
  const user = ctx.actor.user;
  const target = await getTargetOrThrow(ctx.db, user, type, apiId, "read");
  const where = and(eq(annotations.targetType, target.type), eq(annotations.targetId, target.id), isNull(annotations.deletedAt));
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(annotations).where(where).orderBy(asc(annotations.createdAt), asc(annotations.id)).offset(page.offset).limit(page.limit),
    ctx.db.select({ total: count() }).from(annotations).where(where),
  ]);
  await ctx.db
    .insert(annotationReads)
    .values({ userId: user.id, targetType: target.type, targetId: target.id })
    .onConflictDoUpdate({ target: [annotationReads.userId, annotationReads.targetType, annotationReads.targetId], set: { readAt: sql`now()` } });
  return envelope(await presentAnnotations(ctx.db, rows), page.offset, total);
}
