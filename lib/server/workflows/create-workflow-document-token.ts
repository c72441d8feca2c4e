import "server-only";
import { and, eq, or } from "drizzle-orm";
import { fileTokens, fileVersions, workflowObjects, type WorkflowInstanceRow } from "@/db/schema";
import { hashToken, newToken } from "../auth/tokens";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { FILE_TOKEN_TTL_MS, pinnedUse } from "../tokens/create-file-token";
import { SIGNED_SCAN_NUMBER } from "./present-workflow-instances";
import { assertAlive, getInstanceForUserOrThrow, openParticipantTokenOrThrow } from "./workflow-access";

/**
 * POST /workflow/instance/(token)/documents/(fileId)/(type), type `preview` or `download`: a
 * file token (15 minutes) for one document of the instance, so the validator's page can show it
 * with the platform's own viewers (`/api/preview/(id)/content?token=`) and download it
 * (`/api/file/download?token=`). The token stands for the initiator: the document is shown on
 * their behalf, with their rights checked again when it is used. Only the instance's own
 * versions (and, flux 2, the signed scan as the signer sent it: its first version) are
 * reachable; anything else is a 404. The token is pinned to that version: `latest` never turns
 * it into one uploaded since the instance started (issue 25).
 */
export async function createWorkflowDocumentToken(ctx: Ctx, key: string | number, versionId: number, type: "preview" | "download"): Promise<{ token: string }> {
  let instance: WorkflowInstanceRow;
  if (typeof key === "string") {
    ({ instance } = await openParticipantTokenOrThrow(ctx.db, key));
  } else {
    if (!ctx.actor) throw new AppError("unauthorized", "Authentication required: send Authorization: Bearer <token>");
    ({ instance } = await getInstanceForUserOrThrow(ctx.db, ctx.actor.user, key));
    assertAlive(instance);
  }
  const signed = await ctx.db
    .select({ id: workflowObjects.id })
    .from(workflowObjects)
    .leftJoin(fileVersions, and(eq(fileVersions.fileId, workflowObjects.signedFileId), eq(fileVersions.number, SIGNED_SCAN_NUMBER)))
    .where(and(eq(workflowObjects.instanceId, instance.id), or(eq(workflowObjects.versionId, versionId), eq(fileVersions.id, versionId))))
    .limit(1);
  if (signed.length === 0) throw new AppError("not_found", "This document is not part of the instance");
  const token = newToken();
  await ctx.db.insert(fileTokens).values({ tokenHash: hashToken(token), versionId, userId: instance.ownerId, type: pinnedUse(type), expiresAt: new Date(Date.now() + FILE_TOKEN_TTL_MS) });
  return { token };
}
