import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { idArray } from "../folders/id-array";
import { DEFAULT_MAX_ATTEMPTS } from "../jobs/enqueue";
import { META_JOB } from "./enqueue-derivatives";

/**
 * A folder copy shares the blobs of the files it copies: their copies take the finished thumbnails
 * and texts of the source versions in two statements, whatever the number of files (a thumbnail
 * blob is shared like the content). `pairs` maps source folders to their copies, as the copy
 * made them; a source still being processed leaves its copy without rows (/mixer queues it). The
 * copies took their sources' metadata with their version rows; where a source's had not been read
 * yet, the copy's is queued (a third statement).
 */
export async function copyFolderDerivatives(db: DbOrTx, pairs: [number, number][]): Promise<void> {
  if (pairs.length === 0) return;
  const copies = sql`
    unnest(${idArray(pairs.map((p) => p[0]))}, ${idArray(pairs.map((p) => p[1]))}) AS m(old_id, new_id)
    JOIN files nf ON nf.folder_id = m.new_id AND nf.deleted_at IS NULL
    JOIN files f ON f.folder_id = m.old_id AND f.deleted_at IS NULL AND f.name_key = nf.name_key`;
  await db.execute(sql`
    INSERT INTO version_previews (version_id, state, file_type, thumb_blob_id, thumb_mime, page_count, error, updated_at)
    SELECT nf.current_version_id, p.state, p.file_type, p.thumb_blob_id, p.thumb_mime, p.page_count, p.error, now()
    FROM ${copies} JOIN version_previews p ON p.version_id = f.current_version_id
    WHERE p.state IN ('available', 'failed', 'none')
    ON CONFLICT (version_id) DO NOTHING`);
  await db.execute(sql`
    INSERT INTO version_texts (version_id, state, content, language, tool_missing, pages_done, searchable_blob_id, searchable_size, updated_at)
    SELECT nf.current_version_id, t.state, t.content, t.language, t.tool_missing, t.pages_done, t.searchable_blob_id, t.searchable_size, now()
    FROM ${copies} JOIN version_texts t ON t.version_id = f.current_version_id
    WHERE t.state IN ('available', 'failed', 'none')
    ON CONFLICT (version_id) DO NOTHING`);
  await db.execute(sql`
    INSERT INTO jobs (kind, payload, dedupe_key, run_at, max_attempts)
    SELECT ${META_JOB}::text, jsonb_build_object('versionId', v.id), ${META_JOB}::text || ':' || v.id, now(), ${DEFAULT_MAX_ATTEMPTS}::int
    FROM ${copies} JOIN file_versions v ON v.id = nf.current_version_id
    WHERE v.meta IS NULL
    ON CONFLICT (dedupe_key) WHERE status = 'pending' DO NOTHING`);
}
