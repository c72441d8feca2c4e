import type { NextConfig } from "next";
import { staticSecurityHeaderRules } from "./lib/server/http/security-headers";

const nextConfig: NextConfig = {
  // pdfjs breaks when bundled; bundling PGlite triples build time (environment.md, traps 5).
  serverExternalPackages: [
    "pdfjs-dist",
    "@electric-sql/pglite",
    "sharp",
    "@node-rs/argon2",
    "postgres",
    // The seal loads these as Node (and the tests) load them: fontkit's UMD build, libpdf's #src imports.
    "@libpdf/core",
    "pdf-lib",
    "@pdf-lib/fontkit",
    "node-forge",
    // Loaded at run time by lib/server/workers/bundled-worker.ts (tests, next dev) to bundle a worker: never bundled itself.
    "esbuild",
  ],
  experimental: {
    // Next loads every page and route module at start by default, on the event loop that must
    // answer the first request: ~2 s of loading the first request waited behind (issue 26). Each
    // module now loads with the first request that needs it.
    preloadEntriesOnStart: false,
  },
  poweredByHeader: false,
  typescript: { ignoreBuildErrors: false },
  // Static headers (nosniff, no framing of the API); the pages' per-request CSP is set by proxy.ts.
  async headers() {
    return staticSecurityHeaderRules();
  },
};

export default nextConfig;
