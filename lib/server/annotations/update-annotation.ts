import "server-only";
import { eq, sql } from "drizzle-orm";
import { annotations } from "@/db/schema";
import type { AnnotationResponse } from "@/lib/contracts/annotations";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { getAnnotationOrThrow } from "./annotation-target";
import { presentAnnotation } from "./present-annotations";
import { recordAnnotationChange } from "./record-annotation-change";

/** PUT /annotation/(id): only its author may change the text, and only while they may read the target. */
export async function updateAnnotation(ctx: AuthedCtx, annotationId: number, text: string): Promise<AnnotationResponse> {
  const user = ctx.actor.user;
  return ctx.db.transaction(async (tx) => {
    const { annotation, target } = await getAnnotationOrThrow(tx, user, annotationId);
    if (annotation.authorId !== user.id) throw new AppError("forbidden", "Only the author may edit an annotation");
    const [updated] = await tx.update(annotations).set({ text, updatedAt: sql`now()` }).where(eq(annotations.id, annotation.id)).returning();
    await recordAnnotationChange(tx, ctx, { type: "ADMLLOG_UPDATE", verb: "Edited", annotation: updated, target });
    return presentAnnotation(tx, updated);
  });
}
