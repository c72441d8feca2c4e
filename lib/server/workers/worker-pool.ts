import "server-only";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

/**
 * Heavy work off the event loop (architecture.md, "Heavy work never runs on the event loop";
 * environment.md, trap 17): a few worker threads, each with a heap ceiling, each task with a
 * wall-clock limit. A worker over a limit is terminated (its memory goes with it) and replaced
 * for the next task; the task fails with WorkerLimitExceeded and is never retried here. Tasks
 * beyond the free workers wait their turn, or, when they give a `waitMs`, are refused
 * (WorkerBusy) once it has passed, so a request answers 423 instead of piling up.
 *
 * A worker file speaks a small protocol:
 * in:  {type: "run", id, op, args} and {type: "reply", req, value | error}
 * out: {type: "done", id, value} | {type: "fail", id, error: {message, code?, details?}}
 *      | {type: "call", id, req, name, args}: the worker asks the main thread for something only
 *      it has, answered by the task's `calls[name]`: the byte ranges of a blob (the worker never
 *      opens the blob store, so it works the same on disk and on S3), a signature with a key that
 *      never leaves the main thread.
 */

export type WorkerPoolOptions = {
  /** Absolute path of the worker's module: plain JavaScript importing node_modules only. */
  file: string;
  /** Threads at most. */
  size: number;
  /** The heap ceiling of one thread (V8's old generation). */
  memoryMb: number;
  /** The default wall-clock limit of one task, from the moment a worker takes it. */
  timeoutMs: number;
  /** Tasks with a `waitMs` refused at once beyond this many waiting. */
  maxQueue: number;
  /** An idle thread ends after this. */
  idleMs: number;
};

export type TaskOptions = {
  timeoutMs?: number;
  /** How long the task may wait for a free worker; past it, WorkerBusy. Unset: it waits its turn. */
  waitMs?: number;
  /** What the worker may ask the main thread for, by name. */
  calls?: Record<string, (args: any) => Promise<unknown>>;
};

/** Over the time or memory limit, or the thread died: the content is the cause, the task is over. */
export class WorkerLimitExceeded extends Error {
  constructor(readonly limit: "time" | "memory" | "crash", message: string) {
    super(message);
  }
}

/** Every worker busy and the task could not wait longer. */
export class WorkerBusy extends Error {}

/** The worker answered with an error of its own (a damaged document, a page out of range). */
export class WorkerTaskError extends Error {
  constructor(
    message: string,
    readonly code?: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** A positive whole number from a setting (an environment variable), else `fallback`. */
export function positiveSetting(setting: string | undefined, fallback: number): number {
  const n = Number(setting);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : fallback;
}

/** Threads a pool of heavy work gets by default: 2 on a machine of 3 cores or more, else 1 (the web thread keeps a core). */
export const defaultPoolSize = () => Math.min(2, Math.max(1, availableParallelism() - 1));

type Task = {
  id: number;
  op: string;
  args: unknown;
  options: TaskOptions;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  waitTimer?: NodeJS.Timeout;
  /** A failure of a call (the store's error), rethrown as is rather than as the worker's. */
  callError?: unknown;
};

type Slot = { worker: Worker | null; task: Task | null; timer?: NodeJS.Timeout; idleTimer?: NodeJS.Timeout; ending?: Promise<unknown> };

type Message =
  | { type: "done"; id: number; value: unknown }
  | { type: "fail"; id: number; error: { message: string; code?: string; details?: unknown } }
  | { type: "call"; id: number; req: number; name: string; args: unknown };

export class WorkerPool {
  private readonly slots: Slot[];
  private readonly queue: Task[] = [];
  private nextId = 1;

  constructor(private readonly options: WorkerPoolOptions) {
    this.slots = Array.from({ length: Math.max(1, options.size) }, () => ({ worker: null, task: null }));
  }

  run<T>(op: string, args: unknown, options: TaskOptions = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const task: Task = { id: this.nextId++, op, args, options, resolve: resolve as (value: unknown) => void, reject };
      if (options.waitMs !== undefined) {
        if (this.queue.filter((t) => t.options.waitMs !== undefined).length >= this.options.maxQueue) {
          return reject(new WorkerBusy("Every worker is busy"));
        }
        task.waitTimer = setTimeout(() => {
          const at = this.queue.indexOf(task);
          if (at < 0) return;
          this.queue.splice(at, 1);
          reject(new WorkerBusy("Every worker stayed busy"));
        }, options.waitMs);
      }
      this.queue.push(task);
      this.dispatch();
    });
  }

  private dispatch() {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.task || slot.ending) continue;
      const task = this.queue.shift()!;
      clearTimeout(task.waitTimer);
      this.start(slot, task);
    }
  }

  private start(slot: Slot, task: Task) {
    clearTimeout(slot.idleTimer);
    let worker: Worker;
    try {
      worker = slot.worker ??= this.spawn(slot);
    } catch (error) {
      task.reject(error);
      return;
    }
    slot.task = task;
    // Held open while it works, so a pending task keeps the process alive; idle, it does not.
    worker.ref();
    const timeoutMs = task.options.timeoutMs ?? this.options.timeoutMs;
    slot.timer = setTimeout(() => this.kill(slot, new WorkerLimitExceeded("time", `It took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`)), timeoutMs);
    worker.postMessage({ type: "run", id: task.id, op: task.op, args: task.args });
  }

  private spawn(slot: Slot): Worker {
    if (!existsSync(this.options.file)) {
      throw new Error(`The worker ${this.options.file} is missing: the server must run from the project's folder`);
    }
    const worker = new Worker(this.options.file, {
      resourceLimits: { maxOldGenerationSizeMb: this.options.memoryMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, this.options.memoryMb / 8)) },
      stdout: false,
      stderr: false,
    });
    worker.on("message", (message: Message) => this.receive(slot, worker, message));
    worker.on("error", (error: Error & { code?: string }) => {
      if (slot.worker !== worker) return;
      const limit = error.code === "ERR_WORKER_OUT_OF_MEMORY" ? "memory" : "crash";
      const reason = limit === "memory" ? `It needed more than ${this.options.memoryMb} MB and was stopped` : `The worker stopped: ${error.message}`;
      slot.worker = null;
      this.settle(slot, { error: new WorkerLimitExceeded(limit, reason) });
    });
    worker.on("exit", () => {
      if (slot.worker !== worker) return;
      slot.worker = null;
      this.settle(slot, { error: new WorkerLimitExceeded("crash", "The worker stopped") });
    });
    return worker;
  }

  private receive(slot: Slot, worker: Worker, message: Message) {
    const task = slot.task;
    if (slot.worker !== worker || !task || message.id !== task.id) return;
    if (message.type === "call") {
      const call = task.options.calls?.[message.name];
      const answer = call ? call(message.args) : Promise.reject(new Error(`This task answers no call ${message.name}`));
      answer.then(
        (value) => {
          if (slot.task === task) worker.postMessage({ type: "reply", req: message.req, value });
        },
        (error: unknown) => {
          task.callError ??= error;
          if (slot.task === task) worker.postMessage({ type: "reply", req: message.req, error: String(error) });
        },
      );
    } else if (message.type === "done") {
      this.settle(slot, { value: message.value });
    } else {
      const { message: text, code, details } = message.error;
      this.settle(slot, { error: task.callError ?? new WorkerTaskError(text, code, details) });
    }
  }

  /** Ends the slot's task, frees the slot and hands it the next task. */
  private settle(slot: Slot, outcome: { value?: unknown; error?: unknown }) {
    const task = slot.task;
    if (!task) return;
    clearTimeout(slot.timer);
    slot.task = null;
    if ("error" in outcome && outcome.error !== undefined) task.reject(outcome.error);
    else task.resolve(outcome.value);
    const worker = slot.worker;
    if (worker) {
      worker.unref();
      slot.idleTimer = setTimeout(() => this.retire(slot), this.options.idleMs);
      slot.idleTimer.unref();
    }
    this.dispatch();
  }

  /** Over a limit: the task fails now; the slot takes no task until the thread is gone, so threads never outnumber the pool. */
  private kill(slot: Slot, error: WorkerLimitExceeded) {
    const worker = slot.worker;
    slot.worker = null;
    if (worker) slot.ending = worker.terminate().finally(() => {
      slot.ending = undefined;
      this.dispatch();
    });
    this.settle(slot, { error });
  }

  private retire(slot: Slot) {
    const worker = slot.worker;
    if (!worker || slot.task) return;
    slot.worker = null;
    void worker.terminate();
  }
}
