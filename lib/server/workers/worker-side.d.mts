/** What the main thread answers for a worker (worker-pool.ts, `calls`). */
export type Call = (name: string, args: unknown) => Promise<unknown>;
/** An operation of a worker: its answer, and the buffers to hand over rather than copy. */
export type Operation = (args: any, call: Call) => Promise<{ value: unknown; transfer?: ArrayBuffer[] }>;
export declare function serveOperations(operations: Record<string, Operation>): void;
