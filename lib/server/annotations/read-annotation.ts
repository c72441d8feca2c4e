import "server-only";
import type { AnnotationResponse } from "@/lib/contracts/annotations";
import type { AuthedCtx } from "../context";
import { getAnnotationOrThrow } from "./annotation-target";
import { presentAnnotation } from "./present-annotations";

/** GET /annotation/(id): needs the read right on the annotated file or folder. */
export async function readAnnotation(ctx: AuthedCtx, annotationId: number): Promise<AnnotationResponse> {
  const { annotation } = await getAnnotationOrThrow(ctx.db, ctx.actor.user, annotationId);
  return presentAnnotation(ctx.db, annotation);
}
