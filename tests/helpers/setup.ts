import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";

const url = inject("databaseUrl");
if (url) {
  process.env.DATABASE_URL = url;
  process.env.DATABASE_POOL_SIZE = "4";
} else {
  delete process.env.DATABASE_URL;
  process.env.PGLITE_MEMORY = "1";
}
process.env.DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), "coffre-test-"));
process.env.AUTH_SECRET ??= "test-secret-test-secret-test-secret";
