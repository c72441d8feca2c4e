import { createHash, randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { createMd5, WORKER_MD5_MIN_BYTES } from "@/lib/storage/md5";

const reference = (data: Uint8Array) => createHash("md5").update(data).digest("hex");

async function feed(md5: ReturnType<typeof createMd5>, data: Buffer, sizes: number[]) {
  for (let offset = 0, i = 0; offset < data.length; i++) {
    const n = sizes[i % sizes.length];
    await md5.update(data.subarray(offset, offset + n));
    offset += n;
  }
}

describe("createMd5", () => {
  it("hashes on the worker thread exactly like crypto, whatever the chunk sizes", async () => {
    const data = randomBytes(WORKER_MD5_MIN_BYTES + 123_457);
    const md5 = createMd5(data.length);
    expect(md5.constructor.name).toBe(availableParallelism() > 1 ? "WorkerMd5" : "InlineMd5");
    await feed(md5, data, [1, 65_536, 300_001, 1 << 20, 7]);
    expect(await md5.digest()).toBe(reference(data));
  });

  it("keeps its state across flushes (one tus upload over several requests) and runs sessions side by side", async () => {
    const parts = [randomBytes(3_000_000), randomBytes(5_000_001), randomBytes(2)];
    const whole = Buffer.concat(parts);
    const sessions = [createMd5(WORKER_MD5_MIN_BYTES), createMd5(WORKER_MD5_MIN_BYTES), createMd5(WORKER_MD5_MIN_BYTES)];
    for (const part of parts) {
      await Promise.all(sessions.map((s, i) => feed(s, part, [64 * 1024 + i])));
      await Promise.all(sessions.map((s) => s.flush()));
    }
    const digests = await Promise.all(sessions.map((s) => s.digest()));
    expect(new Set(digests)).toEqual(new Set([reference(whole)]));
  });

  it("hashes small content inline, and an aborted session does not disturb the others", async () => {
    const small = randomBytes(1000);
    const inline = createMd5(small.length);
    expect(inline.constructor.name).toBe("InlineMd5");
    await feed(inline, small, [10]);
    expect(await inline.digest()).toBe(reference(small));
    expect(await createMd5(0).digest()).toBe(reference(new Uint8Array(0)));

    const data = randomBytes(2_000_000);
    const dropped = createMd5(WORKER_MD5_MIN_BYTES);
    const kept = createMd5(WORKER_MD5_MIN_BYTES);
    await feed(dropped, data, [100_000]);
    dropped.abort();
    await feed(kept, data, [100_000]);
    expect(await kept.digest()).toBe(reference(data));
  });
});
