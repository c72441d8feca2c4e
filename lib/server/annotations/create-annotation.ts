import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { annotations, files } from "@/db/schema";
import type { AnnotationResponse, TargetType } from "@/lib/contracts/annotations";
import { recordFolderChange } from "../alerts/record-folder-change";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { notifyUsers } from "../notifications/notify";
import { getTargetOrThrow } from "./annotation-target";
import { presentAnnotation } from "./present-annotations";
import { recordAnnotationChange } from "./record-annotation-change";

export type CreateAnnotationInput = { target_id: number; target_type: TargetType; text: string; conversation?: number | null };

/**
 * POST /annotation: needs the read right on the target. A reply (`conversation`) must answer a
 * live annotation of the same target (400 otherwise, as the caller named it themselves).
 */
export async function createAnnotation(ctx: AuthedCtx, input: CreateAnnotationInput): Promise<AnnotationResponse> {
  const user = ctx.actor.user;
  return ctx.db.transaction(async (tx) => {
    const target = await getTargetOrThrow(tx, user, input.target_type, input.target_id, "read");
    if (input.conversation) {
      const [parent] = await tx
        .select({ id: annotations.id })
        .from(annotations)
        .where(and(eq(annotations.id, input.conversation), eq(annotations.targetType, target.type), eq(annotations.targetId, target.id), isNull(annotations.deletedAt)));
      if (!parent) throw new AppError("invalid_request", "conversation must be an annotation of the same target", { conversation: input.conversation });
    }
    const [annotation] = await tx
      .insert(annotations)
      .values({ targetType: target.type, targetId: target.id, authorId: user.id, text: input.text, conversation: input.conversation ?? null })
      .returning();
    const json = await presentAnnotation(tx, annotation);
    await recordAnnotationChange(tx, ctx, { type: "ADMLLOG_INSERT", verb: "Added", annotation, target, json });
    await recordFolderChange(tx, ctx, { kind: "annotation", objectType: target.type, objectId: target.id, objectName: target.name });
    if (target.versionId !== null) {
      const [file] = await tx.select({ ownerId: files.ownerId, folderId: files.folderId }).from(files).where(eq(files.id, target.id));
      await notifyUsers(tx, [file.ownerId], { type: "comment", actorId: user.id, object: { type: "file", id: target.versionId, name: target.name, url: `/files/${file.folderId}` } });
    }
    return json;
  });
}
