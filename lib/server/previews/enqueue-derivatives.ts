import "server-only";
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { fileVersions, versionPreviews, versionTexts, type FileVersion } from "@/db/schema";
import { enqueueJob } from "../jobs/enqueue";

export const PREVIEW_JOB = "previews.make";
export const TEXT_JOB = "texts.extract";

const FINAL = ["available", "failed", "none"];

/**
 * Called in the transaction that makes a version visible (commitUpload): marks its thumbnail and
 * its text pending and queues the jobs that make them. Copies and clones (`sharedBlob`) share the
 * blob of their source, so they take the source's finished derivatives instead (same bytes, same
 * thumbnail; the thumbnail blob is shared like the content). Only they look: file_versions.blob_id
 * has no index, and a fresh upload's blob is new anyway. Calling it again (content replaced)
 * starts over.
 */
export async function enqueueDerivatives(db: DbOrTx, version: Pick<FileVersion, "id" | "blobId">, sharedBlob = false): Promise<void> {
  if (sharedBlob && version.blobId && (await reuseDerivatives(db, version.id, version.blobId))) return;
  const reset = { state: "pending", fileType: null, thumbBlobId: null, thumbMime: null, pageCount: null, error: null, updatedAt: new Date() };
  // Four independent rows, sent together (pipelined on the transaction's connection): one round
  // trip instead of four in every upload's commit. All are awaited before a failure is reported.
  const results = await Promise.allSettled([
    db.insert(versionPreviews).values({ versionId: version.id, ...reset }).onConflictDoUpdate({ target: versionPreviews.versionId, set: reset }),
    db
      .insert(versionTexts)
      .values({ versionId: version.id, state: "pending", content: "" })
      .onConflictDoUpdate({
        target: versionTexts.versionId,
        set: { state: "pending", content: "", language: "simple", toolMissing: null, pagesDone: 0, searchableBlobId: null, searchableSize: null, updatedAt: new Date() },
      }),
    enqueueJob(db, PREVIEW_JOB, { versionId: version.id }, { dedupeKey: `${PREVIEW_JOB}:${version.id}` }),
    enqueueJob(db, TEXT_JOB, { versionId: version.id }, { dedupeKey: `${TEXT_JOB}:${version.id}` }),
  ]);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}

/** Copies the finished derivatives of another version with the same blob; false when there are none. */
async function reuseDerivatives(db: DbOrTx, versionId: number, blobId: string): Promise<boolean> {
  const [source] = await db
    .select({ preview: versionPreviews, textState: versionTexts.state, textVersionId: versionTexts.versionId })
    .from(versionPreviews)
    .innerJoin(fileVersions, eq(fileVersions.id, versionPreviews.versionId))
    .innerJoin(versionTexts, eq(versionTexts.versionId, versionPreviews.versionId))
    .where(
      and(
        eq(fileVersions.blobId, blobId),
        ne(fileVersions.id, versionId),
        inArray(versionPreviews.state, FINAL),
        inArray(versionTexts.state, FINAL),
      ),
    )
    .limit(1);
  if (!source) return false;
  const copied = { ...source.preview, versionId, updatedAt: new Date() };
  await db.insert(versionPreviews).values(copied).onConflictDoUpdate({ target: versionPreviews.versionId, set: { ...copied, versionId: undefined } });
  await db.execute(sql`
    INSERT INTO version_texts (version_id, state, content, language, tool_missing, pages_done, searchable_blob_id, searchable_size, updated_at)
    SELECT ${versionId}, state, content, language, tool_missing, pages_done, searchable_blob_id, searchable_size, now()
    FROM version_texts WHERE version_id = ${source.textVersionId}
    ON CONFLICT (version_id) DO UPDATE SET state = excluded.state, content = excluded.content, language = excluded.language,
      tool_missing = excluded.tool_missing, pages_done = excluded.pages_done, searchable_blob_id = excluded.searchable_blob_id,
      searchable_size = excluded.searchable_size, updated_at = now()`);
  return true;
}
