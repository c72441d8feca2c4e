import path from "node:path";
import { defineConfig } from "vitest/config";

// `npm test` runs two projects on a throwaway PostgreSQL database each:
// - api: every route called in process with real Requests, plus route fuzzing;
// - resilience: the built server killed, starved of disk and of its database (builds if stale).
// TEST_DB=pglite runs the api project but the fuzzing on the embedded database (one in-memory PGlite per worker).
const pglite = process.env.TEST_DB === "pglite";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // Server modules import "server-only" (lib/server, lib/storage, db/index.ts); tests run them in Node.
      "server-only": path.resolve(import.meta.dirname, "node_modules/next/dist/compiled/server-only/empty.js"),
    },
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 90_000,
    pool: "forks",
    maxWorkers: pglite ? 2 : 4,
    projects: [
      {
        extends: true,
        test: {
          name: "api",
          // The route fuzzing checks input handling, which does not depend on the database: it runs
          // on PostgreSQL only (on PGlite it was a third of the run's time).
          // So do the unit tests, which touch no database at all (the lint ones cost 30 s).
          include: ["tests/api/**/*.test.ts", ...(pglite ? [] : ["tests/fuzz/**/*.test.ts", "tests/unit/**/*.test.ts"])],
          globalSetup: ["tests/helpers/global-setup.ts"],
          setupFiles: ["tests/helpers/setup.ts"],
        },
      },
      ...(pglite
        ? []
        : [
            {
              extends: true as const,
              test: {
                name: "resilience",
                include: ["tests/resilience/**/*.test.ts"],
                globalSetup: ["tests/resilience/global-setup.ts"],
                setupFiles: ["tests/helpers/setup.ts"],
                fileParallelism: false,
                testTimeout: 240_000,
              },
            },
          ]),
    ],
  },
});
