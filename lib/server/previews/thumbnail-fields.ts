import "server-only";
import { inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { versionPreviews } from "@/db/schema";
import type { FileResponse } from "@/lib/contracts/files";
import { fileTypeOf } from "./file-type";
import { contentKind, FILE_TYPE } from "./formats";
import { thumbTokenSigner } from "./thumb-token";

export type ThumbnailFields = Pick<FileResponse, "thumb_token" | "file_type">;
type Shown = { versionId: number; mime: string | null; name: string };

/** The formats whose thumbnail the jobs make here (no ffmpeg: no video thumbnails). */
const EXPECTED = new Set(["image", "document"]);

/**
 * The full File's `thumb_token` and `file_type`, in one query. `file_type` comes from the one
 * classifier (file-type.ts), like every other answer that names it, whatever the thumbnail's
 * state. `thumb_token` is given for the versions whose thumbnail exists, and for those whose
 * thumbnail is being made when their format will get one (a client may show it at once: /mixer
 * waits for it).
 */
export async function loadThumbnails(db: DbOrTx, userId: number, versions: Shown[]): Promise<Map<number, ThumbnailFields>> {
  if (versions.length === 0) return new Map();
  const found = await db
    .select({ versionId: versionPreviews.versionId, state: versionPreviews.state, fileType: versionPreviews.fileType })
    .from(versionPreviews)
    .where(inArray(versionPreviews.versionId, [...new Set(versions.map((v) => v.versionId))]));
  const states = new Map(found.map((p) => [p.versionId, p]));
  const sign = await thumbTokenSigner();
  const fields = new Map<number, ThumbnailFields>();
  for (const { versionId, mime, name } of versions) {
    const preview = states.get(versionId);
    const inProgress = preview?.state === "pending" || preview?.state === "preparing";
    const thumbnailType = FILE_TYPE[contentKind(mime, name)];
    const hasThumbnail = preview?.state === "available" || (inProgress && thumbnailType !== undefined && EXPECTED.has(thumbnailType));
    const fileType = fileTypeOf(mime, name);
    const found: ThumbnailFields = {};
    if (fileType) found.file_type = fileType;
    if (hasThumbnail) found.thumb_token = sign({ versionId, userId });
    if (found.file_type || found.thumb_token) fields.set(versionId, found);
  }
  return fields;
}
