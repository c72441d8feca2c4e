import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StorageError } from "@/lib/storage/storage-error";
import { HEAD_BYTES } from "@/lib/storage/blob-store";
import { S3BlobStore, s3SettingsFromEnv } from "@/lib/storage/s3-store";
import { S3RVER_KEY, startS3rver, type S3rverHandle } from "../../helpers/s3rver";

const MiB = 1024 * 1024;
let server: S3rverHandle;
let store: S3BlobStore;
let tempDir: string;

const md5 = (data: Uint8Array) => createHash("md5").update(data).digest("hex");

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

async function ids(): Promise<Set<string>> {
  const found = new Set<string>();
  for await (const id of store.list()) found.add(id);
  return found;
}

/** `total` bytes in fresh 1 MiB chunks (each different), without ever holding them all. */
function generated(total: number, hash?: ReturnType<typeof createHash>): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const n = Math.min(MiB, total - sent);
      const chunk = Buffer.alloc(n, (sent / MiB) % 251);
      if (n >= 4) chunk.writeUInt32BE(sent / MiB, 0);
      hash?.update(chunk);
      sent += n;
      this.push(chunk);
    },
  });
}

beforeAll(async () => {
  server = await startS3rver("store-test");
  tempDir = await fs.mkdtemp(path.join(os.tmpdir(), "coffre-s3-work-"));
  store = new S3BlobStore(
    { endpoint: server.endpoint, region: "us-east-1", bucket: server.bucket, accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY, forcePathStyle: true },
    tempDir,
  );
});

afterAll(async () => {
  await server?.stop();
  if (tempDir) await fs.rm(tempDir, { recursive: true, force: true });
});

describe("S3 blob store on s3rver", () => {
  it("stores, reads whole and by range, stats, lists and deletes a blob", async () => {
    const data = randomBytes(100_000);
    const blob = await store.put(Readable.from([data.subarray(0, 30_000), data.subarray(30_000)]));
    expect(blob.size).toBe(100_000);
    expect(blob.md5).toBe(md5(data));
    expect(Buffer.from(blob.head!).equals(data.subarray(0, HEAD_BYTES))).toBe(true);

    expect((await readAll(await store.read(blob.id))).equals(data)).toBe(true);
    expect((await readAll(await store.read(blob.id, { start: 10, end: 19 }))).equals(data.subarray(10, 20))).toBe(true);
    expect((await readAll(await store.read(blob.id, { start: 99_990, end: 99_999 }))).equals(data.subarray(99_990))).toBe(true);

    expect(await store.size(blob.id)).toBe(100_000);
    const stat = await store.stat(blob.id);
    expect(stat!.size).toBe(100_000);
    expect(Math.abs(stat!.modifiedAt.getTime() - Date.now())).toBeLessThan(60_000);
    expect(await ids()).toContain(blob.id);
    expect(store.localPath()).toBeNull();
    expect(store.relativePath()).toBeNull();
    expect(await store.freeBytes()).toBeNull();

    await store.delete(blob.id);
    expect(await store.size(blob.id)).toBeNull();
    expect(await store.stat(blob.id)).toBeNull();
    expect(await ids()).not.toContain(blob.id);
    await expect(store.read(blob.id)).rejects.toMatchObject({ code: "not_found" });
    // Deleting twice, or an id that is not one, is not an error; reading one is a 404.
    await store.delete(blob.id);
    await expect(store.read("../../etc/passwd")).rejects.toBeInstanceOf(StorageError);
  });

  it("stores empty content, and content of more than one part", async () => {
    const empty = await store.put(Readable.from([]));
    expect(empty).toMatchObject({ size: 0, md5: md5(Buffer.alloc(0)) });
    expect(await store.size(empty.id)).toBe(0);
    expect((await readAll(await store.read(empty.id))).length).toBe(0);

    const hash = createHash("md5");
    const blob = await store.put(generated(8 * MiB + 1, hash), { expectedBytes: 8 * MiB + 1 });
    expect(blob).toMatchObject({ size: 8 * MiB + 1, md5: hash.digest("hex") });
    const back = await readAll(await store.read(blob.id));
    expect(back.length).toBe(8 * MiB + 1);
    expect(md5(back)).toBe(blob.md5);
  });

  it("streams a 64 MiB write as a multipart upload with bounded memory", async () => {
    const hash = createHash("md5");
    // Memory still held, not garbage waiting for a collection: collect before each sample.
    v8.setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    gc();
    const before = process.memoryUsage();
    const peak = { rss: before.rss, arrayBuffers: before.arrayBuffers };
    const sampler = setInterval(() => {
      gc();
      const now = process.memoryUsage();
      peak.rss = Math.max(peak.rss, now.rss);
      peak.arrayBuffers = Math.max(peak.arrayBuffers, now.arrayBuffers);
    }, 25);
    let blob;
    try {
      blob = await store.put(generated(64 * MiB, hash), { expectedBytes: 64 * MiB });
    } finally {
      clearInterval(sampler);
    }
    expect(blob).toMatchObject({ size: 64 * MiB, md5: hash.digest("hex") });
    // Live buffers: two 5 MiB parts in flight, the part being gathered and its copy, the hasher's slabs: below
    // the 64 MiB of the content (held whole, a write would need twice that with the part copies).
    expect(peak.arrayBuffers - before.arrayBuffers).toBeLessThan(44 * MiB);
    // The process as a whole (allocator slack included) grew by less than the content.
    expect(peak.rss - before.rss).toBeLessThan(64 * MiB);

    const back = createHash("md5");
    let size = 0;
    for await (const chunk of await store.read(blob.id)) {
      back.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    expect({ size, md5: back.digest("hex") }).toEqual({ size: 64 * MiB, md5: blob.md5 });
    // The multipart upload is in s3rver's own listing as one object of that size.
    expect(await store.size(blob.id)).toBe(64 * MiB);
    await store.delete(blob.id);
  }, 120_000);

  it("refuses content over the cap with a 507 and leaves no object (small and multipart)", async () => {
    const known = await ids();
    await expect(store.put(Readable.from([Buffer.alloc(60), Buffer.alloc(60)]), { maxBytes: 100 })).rejects.toMatchObject({ code: "over_limit" });
    await expect(store.put(generated(30 * MiB), { maxBytes: 20 * MiB })).rejects.toMatchObject({ code: "over_limit" });
    expect(await ids()).toEqual(known);
    // The cap counts bytes: exactly the cap is accepted.
    const exact = await store.put(Readable.from([Buffer.alloc(100, 7)]), { maxBytes: 100 });
    expect(exact.size).toBe(100);
    await store.delete(exact.id);
  }, 60_000);

  it("an aborted write stops and leaves no object", async () => {
    const known = await ids();
    const controller = new AbortController();
    let sent = 0;
    const source = new Readable({
      read() {
        sent += MiB;
        if (sent === 12 * MiB) controller.abort();
        this.push(Buffer.alloc(MiB, 1));
      },
    });
    await expect(store.put(source, { signal: controller.signal })).rejects.toMatchObject({ name: "AbortError" });
    expect(sent).toBeLessThan(40 * MiB);
    expect(await ids()).toEqual(known);
  }, 60_000);

  it("adopts a work file from local disk, hashing it or trusting the given MD5, and removes it", async () => {
    const data = randomBytes(3 * MiB + 17);
    const file = path.join(store.tempDir, "work-1");
    await fs.writeFile(file, data);
    const hashed = await store.adoptFile(file);
    expect(hashed).toMatchObject({ size: data.length, md5: md5(data) });
    await expect(fs.access(file)).rejects.toThrow();
    expect((await readAll(await store.read(hashed.id))).equals(data)).toBe(true);

    const second = path.join(store.tempDir, "work-2");
    await fs.writeFile(second, data);
    const trusted = await store.adoptFile(second, { md5: md5(data), size: data.length });
    expect(trusted).toMatchObject({ size: data.length, md5: md5(data) });
    expect(trusted.id).not.toBe(hashed.id);
    expect(md5(await readAll(await store.read(trusted.id)))).toBe(md5(data));
    await expect(fs.access(second)).rejects.toThrow();

    // A size that does not match the file is refused and the work file kept.
    const third = path.join(store.tempDir, "work-3");
    await fs.writeFile(third, data);
    await expect(store.adoptFile(third, { md5: md5(data), size: 5 })).rejects.toThrow(/5 expected/);
    await fs.access(third);
  });

  it("pings the bucket, and fails to for a bucket that does not exist", async () => {
    await store.ping();
    const missing = new S3BlobStore(
      { endpoint: server.endpoint, region: "us-east-1", bucket: "no-such-bucket", accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY, forcePathStyle: true },
      tempDir,
    );
    await expect(missing.ping()).rejects.toThrow();
  });

  it("abandoned multipart writes: nothing to abort on s3rver (no ListMultipartUploads), no error", async () => {
    expect(await store.abortAbandonedWrites(new Date())).toBe(0);
  });

  it("reads its settings from the S3_* variables", () => {
    expect(() => s3SettingsFromEnv({})).toThrow(/S3_BUCKET/);
    expect(s3SettingsFromEnv({ S3_BUCKET: "b" })).toEqual({
      endpoint: undefined,
      region: "us-east-1",
      bucket: "b",
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: false,
    });
    expect(s3SettingsFromEnv({ S3_BUCKET: "b", S3_ENDPOINT: "http://x:9000", S3_REGION: "eu-west-3" })).toMatchObject({
      endpoint: "http://x:9000",
      region: "eu-west-3",
      forcePathStyle: true,
    });
    expect(s3SettingsFromEnv({ S3_BUCKET: "b", S3_ENDPOINT: "http://x", S3_FORCE_PATH_STYLE: "false" }).forcePathStyle).toBe(false);
  });
});
