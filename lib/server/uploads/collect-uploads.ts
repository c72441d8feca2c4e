import "server-only";
import fs from "node:fs/promises";
import path from "node:path";
import { and, inArray, isNotNull, lt, or } from "drizzle-orm";
import type { Db } from "@/db";
import { uploads } from "@/db/schema";
import { getBlobStore } from "@/lib/server/blobs/stores";
import { chunksRoot, incomingDir, removeWorkFiles, tusDir } from "./upload-sessions";

/** How long an unfinished upload may sit untouched: UPLOAD_EXPIRY_HOURS, 24 by default. */
export function uploadExpiryMs(): number {
  const hours = Number(process.env.UPLOAD_EXPIRY_HOURS);
  return (Number.isFinite(hours) && hours > 0 ? hours : 24) * 3_600_000;
}

/**
 * How long an anonymous deposit (through a drop link) may sit untouched: DEPOSIT_EXPIRY_MINUTES,
 * 30 by default, never longer than the upload expiry. With the job running every quarter of an
 * hour, an abandoned deposit and its reservation are gone within the hour.
 */
export function depositExpiryMs(): number {
  const minutes = Number(process.env.DEPOSIT_EXPIRY_MINUTES);
  return Math.min(uploadExpiryMs(), (Number.isFinite(minutes) && minutes > 0 ? minutes : 30) * 60_000);
}

/** The period of the "uploads.collect" job: every 15 minutes, faster when the expiries are shorter. */
export function collectUploadsEveryMs(): number {
  return Math.min(15 * 60_000, depositExpiryMs() / 2, uploadExpiryMs() / 2);
}

export type UploadCollection = { sessions: number; orphans: number; partials: number };

/**
 * Job "uploads.collect" (every 15 minutes): abandoned uploads go, never having been visible, and
 * their reservations against the quotas with them. Sessions untouched for the expiry period
 * (deposits through a drop link: the shorter deposit expiry) lose their row and work files; work files no
 * session knows (after a crash or a cancel racing a chunk), and partial blobs of interrupted
 * writes (`*.part`), go once they are that old too.
 */
export async function collectUploads(db: Db, options: { expiryMs?: number; depositExpiryMs?: number } = {}): Promise<UploadCollection> {
  const expiryMs = options.expiryMs ?? uploadExpiryMs();
  const cutoff = Date.now() - expiryMs;
  const depositCutoff = Date.now() - Math.min(expiryMs, options.depositExpiryMs ?? depositExpiryMs());
  const expired = await db
    .delete(uploads)
    .where(or(lt(uploads.updatedAt, new Date(cutoff)), and(isNotNull(uploads.ulinkId), lt(uploads.updatedAt, new Date(depositCutoff)))))
    .returning({ id: uploads.id });
  for (const { id } of expired) await removeWorkFiles(id);

  let orphans = 0;
  const chunkSessions = (await listOld(chunksRoot(), cutoff)).filter((name) => name !== path.basename(incomingDir()));
  const tusSessions = [...new Set((await listOld(tusDir(), cutoff)).map((name) => name.replace(/\.json$/, "")))];
  for (const id of await withoutSession(db, [...new Set([...chunkSessions, ...tusSessions])])) {
    if (!/^[A-Za-z0-9_-]+$/.test(id)) continue;
    await removeWorkFiles(id);
    orphans++;
  }

  let partials = 0;
  for (const dir of [getBlobStore().tempDir, incomingDir()]) {
    for (const name of await listOld(dir, cutoff)) {
      if (!name.endsWith(".part")) continue;
      await fs.rm(path.join(dir, name), { force: true });
      partials++;
    }
  }
  return { sessions: expired.length, orphans, partials };
}

export async function collectUploadsJob(db: Db): Promise<void> {
  await collectUploads(db);
}

/** Names in `dir` last modified before `cutoff` (a chunk folder changes with each chunk filed). */
async function listOld(dir: string, cutoff: number): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return [];
  }
  const old: string[] = [];
  for (const name of names) {
    const stat = await fs.stat(path.join(dir, name)).catch(() => null);
    if (stat && stat.mtimeMs < cutoff) old.push(name);
  }
  return old;
}

async function withoutSession(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const live = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const found = await db.select({ id: uploads.id }).from(uploads).where(inArray(uploads.id, ids.slice(i, i + 500)));
    for (const r of found) live.add(r.id);
  }
  return ids.filter((id) => !live.has(id));
}
