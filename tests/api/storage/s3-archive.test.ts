import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getDb } from "@/db";
import { archiveVersions } from "@/db/schema";
import { sweepArchiveStore } from "@/lib/server/archives/sweep-archive-store";
import { getArchiveStore } from "@/lib/storage/archive-store";
import { S3BlobStore } from "@/lib/storage/s3-store";
import { createTestUser } from "../../helpers/factories";
import { createFolder, uploadText } from "../../helpers/files";
import { expectError } from "../../helpers/http";
import { s3Env, startS3rver, type S3rverHandle } from "../../helpers/s3rver";
import { openDatabase } from "../../helpers/upload-factories";
import { archiveAndSettle, readArchive, restored, unarchive } from "../archives/archive-helpers";

// ARCHIVE_STORAGE=s3: the cold tier as objects `archive/<id>` in a bucket of a real s3rver: this
// file's own when the live blobs are on disk, or (TEST_S3=1) the run's, in the very bucket that
// holds the live blobs under `blobs/` (the S3_* variables are shared by both tiers).
let server: S3rverHandle | undefined;
let bucketDir = "";
const cache = globalThis as unknown as { __coffreArchive?: unknown };
const VARS = ["ARCHIVE_STORAGE", "ARCHIVE_S3_BUCKET", "S3_ENDPOINT", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const;
const saved = Object.fromEntries(VARS.map((k) => [k, process.env[k]]));
const HOUR = 3_600_000;

/** s3rver answers Last-Modified from its object file's mtime: ageing an object is ageing that file. */
async function ageArchiveObject(id: string, ms: number) {
  const when = new Date(Date.now() - ms);
  await fs.utimes(path.join(bucketDir, "archive", `${id}._S3rver_object`), when, when);
}

async function objectsUnder(prefix: string): Promise<string[]> {
  const names = await fs.readdir(path.join(bucketDir, prefix)).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith("._S3rver_object")).map((n) => n.replace("._S3rver_object", ""));
}

beforeAll(async () => {
  if (process.env.STORAGE === "s3") {
    bucketDir = path.join(inject("s3Directory"), process.env.S3_BUCKET!);
    process.env.ARCHIVE_S3_BUCKET = process.env.S3_BUCKET;
  } else {
    server = await startS3rver("archive-test");
    const env = s3Env(server.endpoint, server.bucket);
    Object.assign(process.env, { S3_ENDPOINT: env.S3_ENDPOINT, S3_ACCESS_KEY_ID: env.S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: env.S3_SECRET_ACCESS_KEY, ARCHIVE_S3_BUCKET: server.bucket });
    bucketDir = path.join(server.directory, server.bucket);
  }
  process.env.ARCHIVE_STORAGE = "s3";
  cache.__coffreArchive = undefined;
  await openDatabase();
}, 180_000);

afterAll(async () => {
  cache.__coffreArchive = undefined;
  for (const k of VARS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  await server?.stop();
});

describe("ARCHIVE_STORAGE=s3", () => {
  it("moves archived versions into the bucket, compressed, and brings the same bytes back", async () => {
    expect(getArchiveStore()).toBeInstanceOf(S3BlobStore);
    const user = await createTestUser();
    const project = await createFolder(user, user.privateRootId!, "Project");
    const text = "an archived report ".repeat(300);
    const report = await uploadText(user, project.id, "report.txt", text);

    const archive = await archiveAndSettle(user.token, "file", report.version.id);
    const db = await getDb();
    const [stored] = await db.select().from(archiveVersions).where(eq(archiveVersions.id, report.version.id));
    expect(stored.archiveBlobId).toBeTruthy();
    expect(await objectsUnder("archive")).toContain(stored.archiveBlobId);
    // Compressed on the way in: the object is smaller than the content.
    expect((await getArchiveStore().stat(stored.archiveBlobId!))!.size).toBe(stored.storedSize);
    expect(stored.storedSize).toBeLessThan(text.length);

    // Read straight from the bucket while archived, then restored into the live tree.
    const download = await readArchive(user.token, "file", report.version.id, { download: "1" });
    expect(download.status).toBe(200);
    expect(download.text).toBe(text);
    const other = await createTestUser();
    expectError(await readArchive(other.token, "file", report.version.id, { download: "1" }), 404);

    expect((await unarchive(user.token, "file", report.version.id)).status).toBe(200);
    await restored(archive.id);
    expect(await getArchiveStore().stat(stored.archiveBlobId!)).toBeNull();
    expect(await objectsUnder("archive")).not.toContain(stored.archiveBlobId);
  });

  it("the sweep removes old objects no archived version names, and keeps young ones", async () => {
    const store = getArchiveStore();
    const orphan = await store.put(Readable.from([Buffer.from("crashed before commit")]));
    const young = await store.put(Readable.from([Buffer.from("being recorded")]));
    await ageArchiveObject(orphan.id, 2 * HOUR);
    expect(await sweepArchiveStore(await getDb())).toBeGreaterThanOrEqual(1);
    expect(await store.stat(orphan.id)).toBeNull();
    expect(await store.stat(young.id)).not.toBeNull();
    await store.delete(young.id);
  });
});
