import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WorkerBusy, WorkerLimitExceeded, WorkerPool, WorkerTaskError } from "@/lib/server/workers/worker-pool";

// A worker of the pool's protocol whose operations misbehave on demand.
const WORKER = `
import { parentPort, threadId } from "node:worker_threads";
const reads = new Map();
let next = 1;
const read = (id, start, end) => new Promise((resolve, reject) => {
  const req = next++;
  reads.set(req, { resolve, reject });
  parentPort.postMessage({ type: "call", id, req, name: "read", args: { start, end } });
});
const ops = {
  echo: async (id, args) => ({ args, threadId }),
  spin: async () => { for (;;); },
  hog: async () => { const kept = []; for (;;) kept.push(new Array(1e5).fill({ a: Math.random() })); },
  throws: async () => { const e = new Error("bad document"); e.code = "unreadable"; throw e; },
  read: async (id) => { const bytes = await read(id, 2, 5); return { text: Buffer.from(bytes).toString() }; },
};
parentPort.on("message", (m) => {
  if (m.type === "reply") { const p = reads.get(m.req); reads.delete(m.req); return m.error ? p.reject(new Error(m.error)) : p.resolve(m.value); }
  ops[m.op](m.id, m.args).then(
    (value) => parentPort.postMessage({ type: "done", id: m.id, value }),
    (e) => parentPort.postMessage({ type: "fail", id: m.id, error: { message: e.message, code: e.code } }),
  );
});`;

function pool(options: Partial<ConstructorParameters<typeof WorkerPool>[0]> = {}) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "coffre-pool-")), "worker.mjs");
  writeFileSync(file, WORKER);
  return new WorkerPool({ file, size: 1, memoryMb: 64, timeoutMs: 2000, maxQueue: 4, idleMs: 1000, ...options });
}

describe("WorkerPool", () => {
  it("runs an operation in a thread and answers its byte-range reads", async () => {
    const p = pool();
    const echoed = await p.run<{ args: unknown; threadId: number }>("echo", { n: 1 });
    expect(echoed.args).toEqual({ n: 1 });
    expect(echoed.threadId).toBeGreaterThan(0);
    expect(await p.run("read", {}, { calls: { read: async ({ start, end }) => new TextEncoder().encode("abcdefgh".slice(start, end + 1)) } })).toEqual({ text: "cdef" });
    await expect(p.run("throws", {})).rejects.toMatchObject({ constructor: WorkerTaskError, code: "unreadable", message: "bad document" });
  });

  it("stops a task over its time limit, and the next task gets a new thread", async () => {
    const p = pool();
    const first = await p.run<{ threadId: number }>("echo", {});
    const started = Date.now();
    const spun = await p.run("spin", {}, { timeoutMs: 500 }).catch((error: unknown) => error);
    expect(spun).toBeInstanceOf(WorkerLimitExceeded);
    expect((spun as WorkerLimitExceeded).limit).toBe("time");
    expect(Date.now() - started).toBeLessThan(1500);
    const after = await p.run<{ threadId: number }>("echo", {});
    expect(after.threadId).not.toBe(first.threadId);
  });

  it("stops a task over its heap ceiling", async () => {
    const p = pool({ timeoutMs: 20_000 });
    const hogged = await p.run("hog", {}).catch((error: unknown) => error);
    expect(hogged).toBeInstanceOf(WorkerLimitExceeded);
    expect((hogged as WorkerLimitExceeded).limit).toBe("memory");
    expect(await p.run("echo", { again: true })).toMatchObject({ args: { again: true } });
  }, 30_000);

  it("queues tasks beyond its threads; one that cannot wait longer is refused", async () => {
    const p = pool({ timeoutMs: 800 });
    const spinning = p.run("spin", {}).catch((error: unknown) => error);
    const queued = p.run("echo", { queued: true });
    await expect(p.run("echo", {}, { waitMs: 100 })).rejects.toBeInstanceOf(WorkerBusy);
    expect(await spinning).toBeInstanceOf(WorkerLimitExceeded);
    expect(await queued).toMatchObject({ args: { queued: true } });
  });
});
