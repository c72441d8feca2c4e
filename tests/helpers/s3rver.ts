import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";

/** s3rver's fixed credentials: it checks signatures against these. */
export const S3RVER_KEY = "S3RVER";

export type S3rverHandle = { endpoint: string; bucket: string; directory: string; stop(): Promise<void> };

// s3rver runs in a child process of its own, so its memory and CPU are not the store's (the
// streaming tests measure the test process's RSS), on port 0 (it prints the port it got).
const SCRIPT = `
const S3rver = require("s3rver");
const [directory, bucket] = process.argv.slice(1);
new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket }] })
  .run()
  .then((address) => process.stdout.write(JSON.stringify({ port: address.port }) + "\\n"))
  .catch((error) => { console.error(error); process.exit(1); });
process.on("disconnect", () => process.exit(0));
`;

/** Starts s3rver (a real S3 protocol server) on a free port, with a temporary folder and one bucket. */
export async function startS3rver(bucket = "coffre-test"): Promise<S3rverHandle> {
  const directory = mkdtempSync(path.join(os.tmpdir(), "coffre-s3rver-"));
  const child: ChildProcess = spawn(process.execPath, ["-e", SCRIPT, directory, bucket], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", (line) => resolve((JSON.parse(line) as { port: number }).port));
    child.once("exit", (code) => reject(new Error(`s3rver exited (${code}) before listening`)));
    child.once("error", reject);
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    directory,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill();
        await exited;
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The environment that makes getBlobStore() use this s3rver. */
export function s3Env(endpoint: string, bucket: string): Record<string, string> {
  return { STORAGE: "s3", S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_ACCESS_KEY_ID: S3RVER_KEY, S3_SECRET_ACCESS_KEY: S3RVER_KEY };
}
