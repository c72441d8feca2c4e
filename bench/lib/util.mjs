import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import net from "node:net";

const started = Date.now();

/** Progress goes to stderr so stdout carries only the table. */
export function log(message) {
  const s = ((Date.now() - started) / 1000).toFixed(1).padStart(6);
  process.stderr.write(`[bench ${s}s] ${message}\n`);
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port nobody listens on right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function md5File(file) {
  const hash = createHash("md5");
  for await (const chunk of createReadStream(file, { highWaterMark: 4 << 20 })) hash.update(chunk);
  return hash.digest("hex");
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export const MiB = 1024 * 1024;
export const mibPerSecond = (bytes, ms) => bytes / MiB / (ms / 1000);
export const round = (n, digits = 1) => (n === null || n === undefined || Number.isNaN(n) ? null : Number(n.toFixed(digits)));

/** Runs `fn`; on failure returns {error} instead of throwing, so one broken scenario never stops the run. */
export async function attempt(label, fn) {
  try {
    return await fn();
  } catch (error) {
    log(`${label} failed: ${error?.message ?? error}`);
    return { error: String(error?.message ?? error).slice(0, 300) };
  }
}
