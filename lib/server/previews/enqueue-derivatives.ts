import "server-only";
import { and, eq, inArray, isNotNull, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { settleAll } from "@/db/pipelined-transaction";
import { fileVersions, versionPreviews, versionTexts, type FileVersion, type VersionPreview } from "@/db/schema";
import { DEFAULT_MAX_ATTEMPTS, enqueueJob } from "../jobs/enqueue";

export const PREVIEW_JOB = "previews.make";
export const TEXT_JOB = "texts.extract";
/** lib/server/meta/extract-meta-job.ts. */
export const META_JOB = "files.meta";

const FINAL = ["available", "failed", "none"];

/** The finished thumbnail and text of a version, to be shared by another version of the same blob. */
export type FinishedDerivatives = { preview: VersionPreview; textVersionId: number };

/**
 * Called in the transaction that makes a version visible (commitUpload): marks its thumbnail and
 * its text pending and queues the jobs that make them, and the one that reads its metadata.
 * Copies and clones share the blob of their source, so they take the source's finished
 * derivatives instead when the caller found some (findFinishedDerivatives): same bytes, same
 * thumbnail, the thumbnail blob shared like the content. `metaRead`: the version's metadata was
 * taken from a version of the same blob (findReadMeta), so its job is not queued. Calling it again
 * (content replaced) starts over. Its statements are sent at once (commitUpload sends its COMMIT
 * right behind them).
 */
export async function enqueueDerivatives(db: DbOrTx, version: Pick<FileVersion, "id">, finished?: FinishedDerivatives | null, options: { metaRead?: boolean } = {}): Promise<void> {
  if (finished) {
    await settleAll([
      options.metaRead ? undefined : enqueueJob(db, META_JOB, { versionId: version.id }, { dedupeKey: `${META_JOB}:${version.id}` }),
      copyDerivatives(db, version.id, finished),
    ]);
    return;
  }
  const kinds = options.metaRead ? sql`(${PREVIEW_JOB}::text), (${TEXT_JOB}::text)` : sql`(${PREVIEW_JOB}::text), (${TEXT_JOB}::text), (${META_JOB}::text)`;
  // Five rows in one statement (in every upload's commit): the thumbnail and the text pending, and
  // their jobs and the metadata's queued as enqueueJob queues them (a pending job of the same key
  // is kept instead).
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
    FROM (VALUES ${kinds}) AS queued(kind)
    ON CONFLICT (dedupe_key) WHERE status = 'pending' DO NOTHING`);
}

/**
 * The finished derivatives of a version with this blob (other than `exceptVersionId`), or null.
 * Only copies and clones look: file_versions.blob_id is shared only by them, and a fresh upload's
 * blob is new anyway.
 */
export async function findFinishedDerivatives(db: DbOrTx, blobId: string, exceptVersionId?: number): Promise<FinishedDerivatives | null> {
  const [source] = await db
    .select({ preview: versionPreviews, textVersionId: versionTexts.versionId })
    .from(versionPreviews)
    .innerJoin(fileVersions, eq(fileVersions.id, versionPreviews.versionId))
    .innerJoin(versionTexts, eq(versionTexts.versionId, versionPreviews.versionId))
    .where(
      and(
        eq(fileVersions.blobId, blobId),
        exceptVersionId === undefined ? undefined : ne(fileVersions.id, exceptVersionId),
        inArray(versionPreviews.state, FINAL),
        inArray(versionTexts.state, FINAL),
      ),
    )
    .limit(1);
  return source ?? null;
}

/**
 * The metadata read from a version with this blob (file_versions.meta, null until its job has
 * run), or null: a copy or a clone keeps its source's (same bytes), without a job of its own.
 */
export async function findReadMeta(db: DbOrTx, blobId: string): Promise<unknown> {
  const [source] = await db
    .select({ meta: fileVersions.meta })
    .from(fileVersions)
    .where(and(eq(fileVersions.blobId, blobId), isNotNull(fileVersions.meta)))
    .limit(1);
  return source?.meta ?? null;
}

/** The two rows copied, sent together. */
async function copyDerivatives(db: DbOrTx, versionId: number, { preview, textVersionId }: FinishedDerivatives) {
  const copied = { ...preview, versionId, updatedAt: new Date() };
  await settleAll([
    db.insert(versionPreviews).values(copied).onConflictDoUpdate({ target: versionPreviews.versionId, set: { ...copied, versionId: undefined } }),
    db.execute(sql`
      INSERT INTO version_texts (version_id, state, content, language, tool_missing, pages_done, searchable_blob_id, searchable_size, updated_at)
      SELECT ${versionId}, state, content, language, tool_missing, pages_done, searchable_blob_id, searchable_size, now()
      FROM version_texts WHERE version_id = ${textVersionId}
      ON CONFLICT (version_id) DO UPDATE SET state = excluded.state, content = excluded.content, language = excluded.language,
        tool_missing = excluded.tool_missing, pages_done = excluded.pages_done, searchable_blob_id = excluded.searchable_blob_id,
        searchable_size = excluded.searchable_size, updated_at = now()`),
  ]);
}
