// The seal worker: pdf-lib and @libpdf/core read, stamp, seal and draw PDFs here, never on the
// web process's event loop (lib/server/signatures/seal/seal-pool.ts runs it). Bundled by esbuild
// (package.json build:server; bundled-worker.ts for tests and `next dev`). The signing key stays
// on the main thread: the seal asks it for each signature it needs (`call("sign")`).
import { writeFile } from "node:fs/promises";
import type { DigestAlgorithm, Signer } from "@libpdf/core";
import { AppError } from "../errors";
import { renderAuditTrail, type AuditTrailInput } from "../signatures/seal/audit-trail-pdf";
import { inspectPdf } from "../signatures/seal/inspect-pdf";
import type { LongTermSettings } from "../signatures/seal/long-term";
import { sealWithSigner, type SealInfo } from "../signatures/seal/seal-with-signer";
import { stampFields, type Stamp } from "../signatures/seal/stamp-fields";
import { stampWatermark, WatermarkRefused } from "../engagement/stamp-watermark";
import { serveOperations, type Call, type Operation } from "./worker-side.mjs";

/** A watermark reads its PDF in ranges of this size. */
const WATERMARK_READ = 4 * 1024 * 1024;

/** A signer as it crosses threads: its certificates and algorithms, without `sign`. */
export type SignerShape = Omit<Signer, "sign">;

/** What every sealing operation takes: the seal's texts, the signer, and B-T / B-LT settings (long-term.ts). */
type SealArgs = { info: SealInfo; signer: SignerShape; longTerm?: LongTermSettings };

const signerFor = (shape: SignerShape, call: Call): Signer => ({
  ...shape,
  sign: async (data: Uint8Array, algorithm: DigestAlgorithm) => (await call("sign", { data, algorithm })) as Uint8Array,
});

/** The contract's errors (a damaged PDF, a field off its page) cross as code "app_error", with what rebuilds them. */
const withAppErrors =
  (operation: Operation): Operation =>
  async (args, call) => {
    try {
      return await operation(args, call);
    } catch (error) {
      if (error instanceof AppError) throw Object.assign(new Error(error.message), { code: "app_error", details: { code: error.code, details: error.details } });
      throw error;
    }
  };

/** A document handed over rather than copied (a buffer of its own only: never a shared pool's). */
function handOver(bytes: Uint8Array) {
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
  return { value: own, transfer: [own.buffer as ArrayBuffer] };
}

serveOperations({
  /** {pdf} → {pages} (pages as a reader shows them), or the refusal (encrypted, damaged, active content). */
  inspect: withAppErrors(async ({ pdf }: { pdf: Uint8Array }) => ({ value: await inspectPdf(pdf) })),
  /** {pdf, stamps, info, signer, longTerm} → the stamped and sealed PDF. */
  sign: withAppErrors(async ({ pdf, stamps, info, signer, longTerm }: SealArgs & { pdf: Uint8Array; stamps: Stamp[] }, call) =>
    handOver(await sealWithSigner(await stampFields(pdf, stamps), info, signerFor(signer, call), longTerm)),
  ),
  /** {pdf, info, signer, longTerm} → the sealed PDF. */
  seal: withAppErrors(async ({ pdf, info, signer, longTerm }: SealArgs & { pdf: Uint8Array }, call) => handOver(await sealWithSigner(pdf, info, signerFor(signer, call), longTerm))),
  /** {input, info, signer, longTerm} → the audit trail, drawn and sealed. */
  auditTrail: withAppErrors(async ({ input, info, signer, longTerm }: SealArgs & { input: AuditTrailInput }, call) =>
    handOver(await sealWithSigner(await renderAuditTrail(input), info, signerFor(signer, call), longTerm)),
  ),
  /**
   * {size, line, file} → {size}: the PDF (read range by range through the main thread) with the
   * watermark's line on every page, written to `file` (a temporary file the main thread streams
   * and removes), so the stamped copy never crosses threads nor sits whole on the web thread.
   */
  watermark: async ({ size, line, file }: { size: number; line: string; file: string }, call) => {
    const pdf = new Uint8Array(size);
    for (let start = 0; start < size; start += WATERMARK_READ) {
      pdf.set((await call("read", { start, end: Math.min(size, start + WATERMARK_READ) - 1 })) as Uint8Array, start);
    }
    try {
      const stamped = await stampWatermark(pdf, line);
      await writeFile(file, stamped, { mode: 0o600 });
      return { value: { size: stamped.length } };
    } catch (error) {
      if (error instanceof WatermarkRefused) throw Object.assign(new Error(error.message), { code: error.code });
      throw error;
    }
  },
});
