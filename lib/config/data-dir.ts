import "server-only";
import path from "node:path";

/** The folder of everything kept on disk (blobs, uploads in progress, the embedded database): DATA_DIR, ./data by default. */
export function dataDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.DATA_DIR ?? "./data");
}
