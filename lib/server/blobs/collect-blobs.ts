import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rows, type Db } from "@/db";
import { getBlobStore } from "@/lib/server/blobs/stores";

/** A blob younger than this is left alone: its upload may still be committing. */
export const BLOB_GRACE_MS = 60 * 60_000;
const BATCH = 500;

/**
 * Every column that holds a blob id: a blob named in any of them is in use. A new table that
 * keeps blobs (thumbnails...) adds its column here, or its blobs will be collected.
 */
const REFERENCES: { table: string; id: SQL; from?: SQL }[] = [
  { table: "file_versions", id: sql`x.blob_id` },
  { table: "users", id: sql`x.picture_blob_id` },
  { table: "version_previews", id: sql`x.thumb_blob_id` },
  { table: "file_templates", id: sql`x.blob_id` },
  { table: "version_renditions", id: sql`x.blob_id` },
  { table: "version_texts", id: sql`x.searchable_blob_id` },
  // A signature document (and a template's) keeps the bytes it was added with, even once the file's version is gone.
  { table: "signature_documents", id: sql`x.blob_id` },
  // The platform logo (lib/server/config/update-logo.ts) lives in the configuration's jsonb.
  { table: "platform_config", id: sql`CASE WHEN x.key = 'logo' THEN x.value->>'blob_id' END` },
  // A mail's attachments (a signed copy, an audit trail) while it waits in the outbox.
  { table: "emails", from: sql`, jsonb_to_recordset(CASE WHEN x.type = 'EM_TE_TOSEND' THEN x.attachments END) AS a(blob_id text)`, id: sql`a.blob_id` },
];

const fromReference = (r: (typeof REFERENCES)[number]) => sql`${sql.identifier(r.table)} x${r.from ?? sql``}`;

const unreferenced = (blobId: SQL) =>
  sql.join(
    REFERENCES.map((r) => sql`NOT EXISTS (SELECT 1 FROM ${fromReference(r)} WHERE ${r.id} = ${blobId})`),
    sql` AND `,
  );

export type BlobCollection = { deletedRows: number; deletedOrphans: number };

/**
 * Job "blobs.collect" (hourly, and soon after deletions): deletes the blobs nothing references
 * any more (copies and clones share blobs, so purges never delete content themselves), and the
 * store files no row knows (left by a crash between storing and committing). Both only past the
 * grace period, so content whose upload is still being committed is never touched.
 */
export async function collectBlobs(db: Db, options: { graceMs?: number } = {}): Promise<BlobCollection> {
  const graceMs = options.graceMs ?? BLOB_GRACE_MS;
  return { deletedRows: await collectUnreferencedRows(db, graceMs), deletedOrphans: await collectOrphanFiles(db, graceMs) };
}

export async function collectBlobsJob(db: Db): Promise<void> {
  await collectBlobs(db);
}

async function collectUnreferencedRows(db: Db, graceMs: number): Promise<number> {
  const store = getBlobStore();
  const cutoff = new Date(Date.now() - graceMs);
  let total = 0;
  for (;;) {
    const deleted = rows<{ id: string }>(
      await db.execute(sql`
        DELETE FROM blobs WHERE id IN (
          SELECT b.id FROM blobs b
          WHERE b.created_at < ${cutoff.toISOString()}::timestamptz AND ${unreferenced(sql`b.id`)}
          LIMIT ${BATCH})
        RETURNING id`),
    ).map((r) => r.id);
    if (deleted.length === 0) return total;
    // A copy or clone may have taken one of them between the check and the delete: keep those.
    const reused = await findReferenced(db, deleted);
    if (reused.size > 0) {
      await db.execute(sql`
        INSERT INTO blobs (id, size, md5)
        SELECT v.blob_id, max(v.size), max(v.md5) FROM file_versions v
        WHERE v.blob_id IN (${sql.join([...reused].map((id) => sql`${id}`), sql`, `)}) GROUP BY v.blob_id
        ON CONFLICT DO NOTHING`);
    }
    for (const id of deleted) {
      if (!reused.has(id)) await store.delete(id);
    }
    total += deleted.length - reused.size;
    if (deleted.length < BATCH) return total;
  }
}

async function collectOrphanFiles(db: Db, graceMs: number): Promise<number> {
  const store = getBlobStore();
  const cutoff = Date.now() - graceMs;
  let total = 0;
  let batch: string[] = [];
  const sweep = async () => {
    const known = await findKnown(db, batch);
    for (const id of batch) {
      if (known.has(id)) continue;
      const stat = await store.stat(id);
      if (stat && stat.modifiedAt.getTime() < cutoff) {
        await store.delete(id);
        total++;
      }
    }
    batch = [];
  };
  for await (const id of store.list()) {
    batch.push(id);
    if (batch.length >= BATCH) await sweep();
  }
  if (batch.length > 0) await sweep();
  // Writes the store began and nobody finished (S3 multipart uploads of a killed process).
  if (store.abortAbandonedWrites) total += await store.abortAbandonedWrites(new Date(cutoff));
  return total;
}

/** Ids that have a blobs row or are referenced. */
async function findKnown(db: Db, ids: string[]): Promise<Set<string>> {
  const list = sql.join(ids.map((id) => sql`${id}`), sql`, `);
  const found = rows<{ id: string }>(await db.execute(sql`SELECT id FROM blobs WHERE id IN (${list})`));
  const known = new Set(found.map((r) => r.id));
  for (const id of await findReferenced(db, ids)) known.add(id);
  return known;
}

async function findReferenced(db: Db, ids: string[]): Promise<Set<string>> {
  const list = sql.join(ids.map((id) => sql`${id}`), sql`, `);
  const selects = REFERENCES.map((r) => sql`SELECT ${r.id} AS id FROM ${fromReference(r)} WHERE ${r.id} IN (${list})`);
  const found = rows<{ id: string }>(await db.execute(sql.join(selects, sql` UNION `)));
  return new Set(found.map((r) => r.id));
}
