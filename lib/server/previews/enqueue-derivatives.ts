import "server-only";
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { fileVersions, versionPreviews, versionTexts, type FileVersion } from "@/db/schema";
import { DEFAULT_MAX_ATTEMPTS } from "../jobs/enqueue";

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
  // Four rows in one statement (in every upload's commit): the thumbnail and the text pending, and
  // their jobs queued as enqueueJob queues them (a pending job of the same key is kept instead).
  await db.execute(sql`
    WITH preview AS (
      INSERT INTO version_previews (version_id, state, updated_at) VALUES (${version.id}::int, 'pending', now())
      ON CONFLICT (version_id) DO UPDATE SET state = 'pending', file_type = NULL, thumb_blob_id = NULL, thumb_mime = NULL, page_count = NULL, error = NULL, updated_at = now()
    ), text AS (
      INSERT INTO version_texts (version_id, state, content, updated_at) VALUES (${version.id}::int, 'pending', '', now())
      ON CONFLICT (version_id) DO UPDATE SET state = 'pending', content = '', updated_at = now()
    )
    INSERT INTO jobs (kind, payload, dedupe_key, run_at, max_attempts)
    SELECT kind, jsonb_build_object('versionId', ${version.id}::int), kind || ':' || ${version.id}::int, now(), ${DEFAULT_MAX_ATTEMPTS}::int
    FROM (VALUES (${PREVIEW_JOB}::text), (${TEXT_JOB}::text)) AS queued(kind)
    ON CONFLICT (dedupe_key) WHERE status = 'pending' DO NOTHING`);
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
    INSERT INTO version_texts (version_id, state, content, updated_at)
    SELECT ${versionId}, state, content, now() FROM version_texts WHERE version_id = ${source.textVersionId}
    ON CONFLICT (version_id) DO UPDATE SET state = excluded.state, content = excluded.content, updated_at = now()`);
  return true;
}
