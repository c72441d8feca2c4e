import "server-only";
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

/** An MD5 computed while bytes stream past. `update` returns a promise only when the caller must wait. */
export interface Md5 {
  update(chunk: Uint8Array): Promise<void> | undefined;
  /** Hands over what is buffered and returns the buffers (between two requests of one tus upload). */
  flush(): Promise<void>;
  digest(): Promise<string>;
  abort(): void;
}

/** Content at least this large is hashed on the worker thread; below it, the round trips cost more than they save. */
export const WORKER_MD5_MIN_BYTES = 8 * 1024 * 1024;

/**
 * MD5 on the request's own thread, for small content, or on a worker thread for large content:
 * hashing was a third of the main thread's time on a 1 GiB upload (profiled on next start); on a
 * second core it runs while the main thread parses and writes (main thread 4.1 → 2.7 CPU s/GiB).
 */
export function createMd5(expectedBytes?: number): Md5 {
  const worthIt = expectedBytes !== undefined && expectedBytes >= WORKER_MD5_MIN_BYTES && availableParallelism() > 1;
  return worthIt ? new WorkerMd5() : new InlineMd5();
}

/** MD5 and size of a file on disk, read once in 1 MiB slices. */
export async function hashFile(file: string): Promise<{ md5: string; size: number }> {
  const hash = createMd5((await fs.stat(file)).size);
  let size = 0;
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
      await hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    return { md5: await hash.digest(), size };
  } catch (error) {
    hash.abort();
    throw error;
  }
}

class InlineMd5 implements Md5 {
  private readonly hash = createHash("md5");
  update(chunk: Uint8Array) {
    this.hash.update(chunk);
    return undefined;
  }
  async flush() {}
  async digest() {
    return this.hash.digest("hex");
  }
  abort() {}
}

// Bytes are copied into a few slabs that travel to the worker and back (transferred, not copied
// again): no allocation per chunk, and at most SLABS × SLAB_BYTES in flight per upload.
// 1 MiB: a quarter of the messages (and wake-ups of both threads) of 256 KiB slabs (profile of a
// tus upload: postMessage was 4% of the main thread).
const SLAB_BYTES = 1024 * 1024;
const SLABS = 4;

type Pending = { resolve: (value: string) => void; reject: (error: Error) => void };
type Session = { onSlab: (slab: ArrayBuffer) => void; onDigest: Pending | null; onError: (error: Error) => void };

const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const hashes = new Map();
parentPort.on("message", (m) => {
  if (m.type === "data") {
    let hash = hashes.get(m.id);
    if (!hash) hashes.set(m.id, (hash = createHash("md5")));
    hash.update(new Uint8Array(m.slab, 0, m.length));
    parentPort.postMessage({ type: "slab", id: m.id, slab: m.slab }, [m.slab]);
  } else if (m.type === "end") {
    const hash = hashes.get(m.id) ?? createHash("md5");
    hashes.delete(m.id);
    parentPort.postMessage({ type: "digest", id: m.id, digest: hash.digest("hex") });
  } else if (m.type === "abort") {
    hashes.delete(m.id);
  }
});`;

const shared = globalThis as unknown as { __coffreMd5?: { worker: Worker; sessions: Map<number, Session>; nextId: number } };

function md5Worker() {
  if (shared.__coffreMd5) return shared.__coffreMd5;
  const worker = new Worker(WORKER_SOURCE, { eval: true });
  const state = { worker, sessions: new Map<number, Session>(), nextId: 1 };
  worker.on("message", (m: { type: string; id: number; slab?: ArrayBuffer; digest?: string }) => {
    const session = state.sessions.get(m.id);
    if (!session) return;
    if (m.type === "slab") session.onSlab(m.slab!);
    else if (m.type === "digest") session.onDigest?.resolve(m.digest!);
  });
  const fail = (error: Error) => {
    if (shared.__coffreMd5 === state) shared.__coffreMd5 = undefined;
    for (const session of state.sessions.values()) session.onError(error);
    state.sessions.clear();
  };
  worker.on("error", fail);
  worker.on("exit", () => fail(new Error("The hashing worker stopped")));
  // An idle hashing worker must not keep the process alive.
  worker.unref();
  shared.__coffreMd5 = state;
  return state;
}

class WorkerMd5 implements Md5 {
  private readonly state = md5Worker();
  private readonly id = this.state.nextId++;
  private free: ArrayBuffer[] = [];
  private allocated = 0;
  private current: Uint8Array | null = null;
  private filled = 0;
  private waiting: (() => void) | null = null;
  private failure: Error | null = null;
  private digestPromise: Promise<string> | null = null;

  constructor() {
    // Held open while it has work, so a pending digest keeps the process alive.
    this.state.worker.ref();
    this.state.sessions.set(this.id, {
      onSlab: (slab) => {
        this.free.push(slab);
        this.wake();
      },
      onDigest: null,
      onError: (error) => {
        this.failure = error;
        this.wake();
      },
    });
  }

  update(chunk: Uint8Array): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    let offset = 0;
    while (offset < chunk.length) {
      if (!this.current) {
        const slab = this.takeSlab();
        if (!slab) return this.waitForSlab().then(() => this.update(chunk.subarray(offset)));
        this.current = new Uint8Array(slab);
        this.filled = 0;
      }
      const n = Math.min(SLAB_BYTES - this.filled, chunk.length - offset);
      this.current.set(chunk.subarray(offset, offset + n), this.filled);
      this.filled += n;
      offset += n;
      if (this.filled === SLAB_BYTES) this.send();
    }
    return undefined;
  }

  async flush(): Promise<void> {
    if (this.current && this.filled > 0) this.send();
    this.current = null;
    while (this.free.length < this.allocated) {
      if (this.failure) throw this.failure;
      await this.waitForSlab();
    }
    if (this.failure) throw this.failure;
    // Nothing in flight: the slabs go back to the heap until the next bytes arrive.
    this.free = [];
    this.allocated = 0;
  }

  digest(): Promise<string> {
    this.digestPromise ??= this.flush().then(
      () =>
        new Promise<string>((resolve, reject) => {
          const session = this.state.sessions.get(this.id);
          if (!session) return reject(this.failure ?? new Error("The hashing worker stopped"));
          session.onDigest = {
            resolve: (digest) => {
              this.forget();
              resolve(digest);
            },
            reject,
          };
          session.onError = reject;
          this.state.worker.postMessage({ type: "end", id: this.id });
        }),
    );
    return this.digestPromise;
  }

  abort() {
    this.forget();
    this.state.worker.postMessage({ type: "abort", id: this.id });
  }

  private forget() {
    this.state.sessions.delete(this.id);
    if (this.state.sessions.size === 0) this.state.worker.unref();
  }

  private send() {
    const slab = this.current!.buffer as ArrayBuffer;
    this.state.worker.postMessage({ type: "data", id: this.id, slab, length: this.filled }, [slab]);
    this.current = null;
    this.filled = 0;
  }

  private takeSlab(): ArrayBuffer | undefined {
    if (this.free.length > 0) return this.free.pop();
    if (this.allocated < SLABS) {
      this.allocated++;
      return new ArrayBuffer(SLAB_BYTES);
    }
    return undefined;
  }

  private waitForSlab(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.waiting = () => (this.failure ? reject(this.failure) : resolve());
    });
  }

  private wake() {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.();
  }
}
