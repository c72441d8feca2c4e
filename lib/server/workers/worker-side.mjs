// The worker's side of worker-pool.ts's protocol, shared by every worker: plain JavaScript, so
// that a worker loaded by path (pdf-worker.mjs) and one bundled from TypeScript (seal-worker.ts)
// both use it.
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";

/**
 * Runs `operations[op](args, call)` for each task the pool sends. An operation resolves with
 * `{ value, transfer? }`; a thrown error goes back with its message, `code` and `details`.
 * `call(name, args)` asks the main thread (the task's `calls`) and resolves with its answer.
 */
export function serveOperations(operations) {
  lowerThreadPriority();
  const pending = new Map();
  let nextCall = 1;
  const callFor = (id) => (name, args) =>
    new Promise((resolve, reject) => {
      const req = nextCall++;
      pending.set(req, { resolve, reject });
      parentPort.postMessage({ type: "call", id, req, name, args });
    });

  parentPort.on("message", (message) => {
    if (message.type === "reply") {
      const call = pending.get(message.req);
      pending.delete(message.req);
      if (!call) return;
      if (message.error !== undefined) call.reject(Object.assign(new Error(message.error), { code: "call_failed" }));
      else call.resolve(message.value);
      return;
    }
    if (message.type !== "run") return;
    const { id, op, args } = message;
    Promise.resolve()
      .then(() => {
        if (!Object.hasOwn(operations, op)) throw Object.assign(new Error(`No operation ${op}`), { code: "unknown_operation" });
        return operations[op](args, callFor(id));
      })
      .then(
        (result) => parentPort.postMessage({ type: "done", id, value: result?.value }, result?.transfer ?? []),
        (error) =>
          parentPort.postMessage({
            type: "fail",
            id,
            error: { message: error instanceof Error ? error.message : String(error), code: typeof error?.code === "string" ? error.code : "failed", details: error?.details },
          }),
      );
  });
}

/**
 * On Linux a thread has a priority of its own: a worker yields the CPU to the web thread, so a
 * heavy document slows other documents, not the server's answers. Elsewhere, no change.
 */
function lowerThreadPriority() {
  try {
    const thread = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(thread) && thread > 0) setPriority(thread, 10);
  } catch {
    // Not Linux, or not allowed: the thread keeps the process's priority.
  }
}
