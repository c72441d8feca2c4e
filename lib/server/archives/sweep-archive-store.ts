import "server-only";
import fs from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import { rows, type Db } from "@/db";
import { getArchiveStore } from "@/lib/server/blobs/stores";

/** Anything younger may still be in a move under way (in this or another process). */
const GRACE_MS = 60 * 60_000;

/**
 * What a crash can leave in the cold tier: half-written blobs (temporary names) and blobs written
 * whole whose version was never recorded. Both are removed once older than an hour; run by the
 * archive jobs, so a store that no move touches stays untouched.
 */
export async function sweepArchiveStore(db: Db): Promise<number> {
  const store = getArchiveStore();
  const cutoff = Date.now() - GRACE_MS;
  let removed = 0;
  for (const name of await fs.readdir(store.tempDir).catch(() => [] as string[])) {
    const file = path.join(store.tempDir, name);
    const stat = await fs.stat(file).catch(() => null);
    if (stat && stat.mtimeMs < cutoff) {
      await fs.rm(file, { force: true });
      removed++;
    }
  }
  let batch: string[] = [];
  const sweep = async () => {
    if (batch.length === 0) return;
    const known = new Set(
      rows<{ id: string }>(await db.execute(sql`SELECT archive_blob_id AS id FROM archive_versions WHERE archive_blob_id IN (${sql.join(batch.map((id) => sql`${id}`), sql`, `)})`)).map((r) => r.id),
    );
    for (const id of batch) {
      if (known.has(id)) continue;
      const stat = await store.stat(id);
      if (stat && stat.modifiedAt.getTime() < cutoff) {
        await store.delete(id);
        removed++;
      }
    }
    batch = [];
  };
  for await (const id of store.list()) {
    batch.push(id);
    if (batch.length === 500) await sweep();
  }
  await sweep();
  // An S3 tier: multipart writes a crash left unfinished (their parts belong to no object).
  removed += (await store.abortAbandonedWrites?.(new Date(cutoff))) ?? 0;
  return removed;
}
