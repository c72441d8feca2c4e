import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // pdfjs breaks when bundled; bundling PGlite triples build time (environment.md, traps 5).
  serverExternalPackages: ["pdfjs-dist", "@electric-sql/pglite", "sharp", "@node-rs/argon2", "postgres"],
  poweredByHeader: false,
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
