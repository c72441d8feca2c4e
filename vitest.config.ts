import path from "node:path";
import { defineConfig } from "vitest/config";

// TEST_DB=pglite runs the same suite on the embedded database (one in-memory PGlite per worker).
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/helpers/global-setup.ts"],
    setupFiles: ["tests/helpers/setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: process.env.TEST_DB === "pglite" ? 2 : 4,
  },
});
