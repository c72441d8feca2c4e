import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db";
import type { JobRun } from "../jobs/registry";
import { fileVersions, files } from "@/db/schema";
import type { FileMeta } from "./clean-meta";
import { readMeta, UnreadableContent } from "./read-meta";

/** Job "files.meta" ({versionId}): queued with the version's thumbnail and text (enqueueDerivatives). */
export async function extractMetaJob(db: Db, payload: Record<string, unknown>, run: JobRun): Promise<void> {
  await extractMeta(db, Number(payload.versionId), run);
}

/**
 * Reads the metadata of one version's content and stores it in file_versions.meta (api.md, "File
 * metadata"): {} until then, and {} too for a file that has none or that could not be read (a
 * damaged or hostile file is no reason to try again; a store that failed to answer is, until the
 * last attempt). Written only if the content is still the one that was read: a replaced content
 * has its own job.
 */
export async function extractMeta(db: Db, versionId: number, run: JobRun = { lastAttempt: true }): Promise<void> {
  const [row] = await db
    .select({ blobId: fileVersions.blobId, size: fileVersions.size, mime: fileVersions.mime, name: files.name })
    .from(fileVersions)
    .innerJoin(files, eq(files.id, fileVersions.fileId))
    .where(eq(fileVersions.id, versionId));
  if (!row) return;
  if (!row.blobId) {
    // No content to read: nothing to show, and nothing for GET /file?meta=1 to queue again.
    await db.update(fileVersions).set({ meta: {} }).where(and(eq(fileVersions.id, versionId), isNull(fileVersions.blobId)));
    return;
  }
  let meta: FileMeta;
  try {
    meta = await readMeta({ blobId: row.blobId, size: row.size, mime: row.mime, name: row.name });
  } catch (error) {
    if (!(error instanceof UnreadableContent) && !run.lastAttempt) throw error;
    console.warn(`[coffre] the metadata of version ${versionId} could not be read:`, error instanceof Error ? error.message : error);
    meta = {};
  }
  await db.update(fileVersions).set({ meta }).where(and(eq(fileVersions.id, versionId), eq(fileVersions.blobId, row.blobId)));
}
