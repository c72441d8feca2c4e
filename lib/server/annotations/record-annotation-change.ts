import "server-only";
import type { Tx } from "@/db";
import type { Annotation } from "@/db/schema";
import type { AnnotationResponse } from "@/lib/contracts/annotations";
import { writeLog, type LogType } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { FILE_EVENT, FOLDER_EVENT, recordEvent } from "../events/record-event";
import type { AnnotationTarget } from "./annotation-target";

/** The log entry of an annotation change, and for a new one the timeline event (type 1). */
export async function recordAnnotationChange(
  tx: Tx,
  ctx: AuthedCtx,
  change: { type: LogType; verb: string; annotation: Annotation; target: AnnotationTarget; json?: AnnotationResponse },
) {
  const { annotation, target } = change;
  if (change.json) {
    await recordEvent(tx, ctx.request, {
      targetType: target.type,
      targetId: target.id,
      versionId: target.versionId ?? undefined,
      type: target.type === "file" ? FILE_EVENT.annotation : FOLDER_EVENT.annotation,
      actorId: ctx.actor.user.id,
      data: change.json,
    });
  }
  await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, {
    type: change.type,
    message: `${change.verb} an annotation on ${target.type} ${target.name}`,
    objectType: "annotation",
    objectId: annotation.id,
    object: target.name,
  });
}
