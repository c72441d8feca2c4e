import "server-only";
import type { Signer } from "@libpdf/core";
import { AppError, type ErrorCode } from "@/lib/server/errors";
import { bundledWorkerFile } from "@/lib/server/workers/bundled-worker";
import { defaultPoolSize, positiveSetting, WorkerBusy, WorkerLimitExceeded, WorkerPool, WorkerTaskError } from "@/lib/server/workers/worker-pool";

/** How long a request waits for a free seal worker before answering 423. */
const REQUEST_WAIT_MS = 10_000;

/**
 * The seal workers (lib/server/workers/seal-worker.ts): pdf-lib and @libpdf/core hold a whole
 * document, several times over, and take seconds on a large one. Each thread has a heap of
 * SIGNATURE_WORKER_MEMORY_MB (default 1024) and each task SIGNATURE_TIMEOUT_MS (default 120 s).
 * One pool per process (globalThis: Next loads this module once per route bundle).
 */
export function sealPool(): Promise<WorkerPool> {
  const shared = globalThis as unknown as { __coffreSealPool?: Promise<WorkerPool> };
  shared.__coffreSealPool ??= bundledWorkerFile("seal-worker").then(
    (file) =>
      new WorkerPool({
        file,
        size: defaultPoolSize(),
        memoryMb: positiveSetting(process.env.SIGNATURE_WORKER_MEMORY_MB, 1024),
        timeoutMs: sealTimeoutMs(),
        maxQueue: 64,
        idleMs: 60_000,
      }),
  );
  shared.__coffreSealPool.catch(() => (shared.__coffreSealPool = undefined));
  return shared.__coffreSealPool;
}

const sealTimeoutMs = () => positiveSetting(process.env.SIGNATURE_TIMEOUT_MS, 120_000);

/**
 * Runs one operation of the seal worker. `signer` signs for it on this thread (the key never
 * crosses); `request` makes a caller that answers an HTTP request wait at most 10 s for a free
 * worker (then 423). Errors come back as the contract's: the worker's AppErrors as they were, a
 * document over the limits as 413.
 */
export async function runSealTask<T>(op: string, args: Record<string, unknown>, options: { signer?: Signer; request?: boolean } = {}): Promise<T> {
  const { signer } = options;
  const shape = signer ? { certificate: signer.certificate, certificateChain: signer.certificateChain, keyType: signer.keyType, signatureAlgorithm: signer.signatureAlgorithm } : undefined;
  const calls: Record<string, (args: any) => Promise<unknown>> = {};
  if (signer) calls.sign = ({ data, algorithm }: { data: Uint8Array; algorithm: Parameters<Signer["sign"]>[1] }) => signer.sign(data, algorithm);
  try {
    const pool = await sealPool();
    return await pool.run<T>(op, shape ? { ...args, signer: shape } : args, { calls, timeoutMs: sealTimeoutMs(), ...(options.request ? { waitMs: REQUEST_WAIT_MS } : {}) });
  } catch (error) {
    if (error instanceof WorkerTaskError && error.code === "app_error") {
      const { code, details } = error.details as { code: ErrorCode; details?: unknown };
      throw new AppError(code, error.message, details);
    }
    if (error instanceof WorkerLimitExceeded) {
      throw new AppError("payload_too_large", `The PDF is too large or too complex to be signed here: ${error.message.charAt(0).toLowerCase()}${error.message.slice(1)}`);
    }
    if (error instanceof WorkerBusy) throw new AppError("locked", "Documents are being signed; try again in a moment");
    throw error;
  }
}

/** inspectPdf (inspect-pdf.ts) in a seal worker, for a request: pages, or the refusal. */
export function inspectPdfOffThread(pdf: Uint8Array): Promise<{ pages: { width: number; height: number }[] }> {
  return runSealTask("inspect", { pdf }, { request: true });
}
