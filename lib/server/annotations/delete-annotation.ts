import "server-only";
import { eq, sql } from "drizzle-orm";
import { annotations } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { getAnnotationOrThrow } from "./annotation-target";
import { recordAnnotationChange } from "./record-annotation-change";

/**
 * DELETE /annotation/(id): its author, or whoever has the delete right in the target's folder.
 * Soft delete; replies stay (they still name it in `conversation`).
 */
export async function deleteAnnotation(ctx: AuthedCtx, annotationId: number): Promise<void> {
  const user = ctx.actor.user;
  await ctx.db.transaction(async (tx) => {
    const { annotation, target } = await getAnnotationOrThrow(tx, user, annotationId);
    if (annotation.authorId !== user.id && !target.rights.delete) throw new AppError("forbidden", "Only the author or someone with the delete right may remove this annotation");
    await tx.update(annotations).set({ deletedAt: sql`now()` }).where(eq(annotations.id, annotation.id));
    await recordAnnotationChange(tx, ctx, { type: "ADMLLOG_DELETE", verb: "Deleted", annotation, target });
  });
}
