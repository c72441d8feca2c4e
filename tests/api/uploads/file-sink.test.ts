import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileSink } from "@/lib/storage/file-sink";
import { createMd5, WORKER_MD5_MIN_BYTES } from "@/lib/storage/md5";

const md5Of = (data: Uint8Array) => createHash("md5").update(data).digest("hex");

/** `data` as a stream of slices of the given sizes (the socket's reads), read as fast as the sink takes them. */
function slices(data: Buffer, sizes: number[]): Readable {
  const parts: Buffer[] = [];
  for (let offset = 0, i = 0; offset < data.length; i++) {
    const n = sizes[i % sizes.length];
    parts.push(data.subarray(offset, offset + n));
    offset += n;
  }
  return Readable.from(parts, { objectMode: false });
}

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "coffre-file-sink-"));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe("FileSink (the single stage every upload writes through)", () => {
  it("writes, counts, keeps the head and hashes (worker) whatever the read sizes", async () => {
    const data = randomBytes(WORKER_MD5_MIN_BYTES + 3 * (1 << 20) + 4321);
    const file = path.join(dir, "whole.bin");
    const md5 = createMd5(data.length);
    const sink = new FileSink(file, { flags: "w", md5, headBytes: 100, flush: true });
    await pipeline(slices(data, [1, 65_536, 300_001, 7, 1 << 20]), sink);
    expect(sink.bytes).toBe(data.length);
    expect(Buffer.from(sink.headView())).toEqual(data.subarray(0, 100));
    expect(await md5.digest()).toBe(md5Of(data));
    expect(md5Of(await fs.readFile(file))).toBe(md5Of(data));
  });

  it("writes at an offset of an existing file (r+) without touching the bytes around", async () => {
    const file = path.join(dir, "middle.bin");
    const before = randomBytes(5000);
    await fs.writeFile(file, before);
    const part = randomBytes(1000);
    const md5 = createMd5(part.length);
    const sink = new FileSink(file, { flags: "r+", start: 2000, md5 });
    await pipeline(slices(part, [3, 250]), sink);
    const after = await fs.readFile(file);
    expect(after.length).toBe(5000);
    expect(after.subarray(0, 2000)).toEqual(before.subarray(0, 2000));
    expect(after.subarray(2000, 3000)).toEqual(part);
    expect(after.subarray(3000)).toEqual(before.subarray(3000));
    expect(await md5.digest()).toBe(md5Of(part));
  });

  it("refuses one byte past maxBytes with the caller's error, before writing the batch that holds it", async () => {
    const file = path.join(dir, "capped.bin");
    const data = randomBytes(10_000);
    const sink = new FileSink(file, { flags: "w", maxBytes: 9_999, tooLarge: () => new Error("too large, said the caller") });
    await expect(pipeline(slices(data, [1000]), sink)).rejects.toThrow("too large, said the caller");
    expect((await fs.stat(file)).size).toBeLessThanOrEqual(9_999);
    // Exactly the limit passes.
    const exact = new FileSink(path.join(dir, "exact.bin"), { flags: "w", maxBytes: 10_000 });
    await pipeline(slices(data, [1000]), exact);
    expect(exact.bytes).toBe(10_000);
  });

  it("fails (and closes) when the source fails, and when the file cannot be opened", async () => {
    const file = path.join(dir, "failing.bin");
    const failing = new Readable({
      read() {
        this.push(randomBytes(1000));
        this.destroy(new Error("client went away"));
      },
    });
    await expect(pipeline(failing, new FileSink(file, { flags: "w", flush: true }))).rejects.toThrow("client went away");
    await expect(pipeline(Readable.from([Buffer.from("x")]), new FileSink(path.join(dir, "missing", "x.bin"), { flags: "r+" }))).rejects.toMatchObject({ code: "ENOENT" });
  });
});
