import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { log } from "./util.mjs";

const SOURCES = ["app", "lib", "db", "pages", "components", "instrumentation.ts", "next.config.ts", "proxy.ts", "server.ts", "package.json"];

function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(entry)) {
    if (child === "node_modules" || child.startsWith(".")) continue;
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

/** Runs `npm run build` when .next/BUILD_ID is missing or older than the newest source file. */
export async function ensureBuild(root) {
  const buildId = path.join(root, ".next", "BUILD_ID");
  const built = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  const newest = Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))));
  if (built && built >= newest) {
    log("build is up to date (.next/BUILD_ID newer than every source file)");
    return { built: false };
  }
  if (process.env.BENCH_SKIP_BUILD === "1" && built) {
    log("BENCH_SKIP_BUILD=1: using the existing build although sources are newer");
    return { built: false, stale: true };
  }
  log(built ? "sources changed since the last build: npm run build" : "no build found: npm run build");
  const started = performance.now();
  await new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "build"], {
      cwd: root,
      stdio: ["ignore", process.stderr, process.stderr],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`npm run build exited with ${code}`))));
  });
  return { built: true, ms: performance.now() - started };
}
