import "server-only";
import { createHash } from "node:crypto";
import type { DbOrTx } from "@/db";
import { shareAccesses, type ShareRow } from "@/db/schema";
import type { RequestInfo } from "../context";
import { FILE_EVENT, parseEnvironment, recordEvent } from "../events/record-event";

/** `refused`: a wrong password or SMS code at passcheck (issue 25, finding 6). */
export type AccessKind = "visit" | "preview" | "download" | "zip" | "refused";

/** An anonymous, stable visitor id: the same address and browser count as one visitor. */
export const visitorOf = (request: RequestInfo) => createHash("sha256").update(`${request.ip}|${request.userAgent ?? ""}`).digest("hex").slice(0, 24);

/**
 * Records one use of a link for its owner's activity view; a preview or a file download is also
 * a file timeline event (4, 3) with no actor, as the visitor has no account. A visit through an
 * email share's personal address (`r`) counts for that recipient, one by a visitor who passed the
 * link's gate for that visitor (their downloads in the link's analytics).
 */
export async function recordShareAccess(
  db: DbOrTx,
  share: Pick<ShareRow, "id">,
  request: RequestInfo,
  access: { kind: AccessKind; fileId?: number; versionId?: number; timeline?: boolean; recipientId?: number | null; visitorId?: number | null },
) {
  await db.insert(shareAccesses).values({
    recipientId: access.recipientId ?? null,
    visitorId: access.visitorId ?? null,
    shareId: share.id,
    kind: access.kind,
    fileId: access.fileId ?? null,
    versionId: access.versionId ?? null,
    visitor: visitorOf(request),
    ip: request.ip,
    env: parseEnvironment(request.userAgent),
    geo: null,
  });
  if (access.timeline && access.fileId && (access.kind === "preview" || access.kind === "download")) {
    await recordEvent(db, request, {
      targetType: "file",
      targetId: access.fileId,
      versionId: access.versionId,
      type: access.kind === "preview" ? FILE_EVENT.preview : FILE_EVENT.download,
      actorId: null,
      data: { share_id: share.id },
    });
  }
}
