import "server-only";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

type Esbuild = typeof import("esbuild");

const built = new Map<string, Promise<string>>();

/**
 * The file of a worker written in TypeScript (lib/server/workers/<name>.ts), which a thread can
 * only run bundled. The built server runs the bundle `npm run build:server` made beside its own
 * (`.next/coffre-<name>.mjs`; server.ts names the folder in COFFRE_WORKERS_DIR). Elsewhere
 * (tests, `next dev`) the worker is bundled from the sources with esbuild, once per process, into
 * .next/cache/coffre-workers: inside the project, so that its packages resolve from node_modules
 * as the built server's do. Both bundles leave node_modules packages out (--packages=external).
 */
export function bundledWorkerFile(name: string): Promise<string> {
  const prebuilt = process.env.COFFRE_WORKERS_DIR;
  if (prebuilt) {
    const file = path.join(prebuilt, `coffre-${name}.mjs`);
    if (!existsSync(file)) return Promise.reject(new Error(`The worker ${file} is missing: build the server with npm run build`));
    return Promise.resolve(file);
  }
  let file = built.get(name);
  if (!file) {
    file = bundleFromSources(name);
    built.set(name, file);
    file.catch(() => built.delete(name));
  }
  return file;
}

async function bundleFromSources(name: string): Promise<string> {
  const root = process.cwd();
  // Loaded by name at run time: esbuild is a tool of development, never part of a route's bundle.
  const esbuild = createRequire(path.join(/*turbopackIgnore: true*/ root, "package.json"))("esbuild" as string) as Esbuild;
  // The options of package.json's build:server.
  const result = await esbuild.build({
    entryPoints: [path.join(root, "lib", "server", "workers", `${name}.ts`)],
    absWorkingDir: root,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    alias: { "server-only": "next/dist/compiled/server-only/empty.js" },
    logLevel: "warning",
    write: false,
    outfile: "worker.mjs",
  });
  const code = result.outputFiles[0].contents;
  const dir = path.join(root, ".next", "cache", "coffre-workers");
  const file = path.join(dir, `${name}-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    await fs.mkdir(dir, { recursive: true });
    // Another process may write the same bundle at the same moment: each renames its own copy.
    const temporary = `${file}.${process.pid}.tmp`;
    await fs.writeFile(temporary, code);
    await fs.rename(temporary, file);
  }
  return file;
}
