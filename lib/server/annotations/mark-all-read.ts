import "server-only";
import { sql } from "drizzle-orm";
import { annotationReadMarks } from "@/db/schema";
import type { AuthedCtx } from "../context";

/** PUT /annotations/all: every annotation existing now is read for the caller (one row). */
export async function markAllAnnotationsRead(ctx: AuthedCtx): Promise<void> {
  await ctx.db
    .insert(annotationReadMarks)
    .values({ userId: ctx.actor.user.id })
    .onConflictDoUpdate({ target: annotationReadMarks.userId, set: { readAt: sql`now()` } });
}
