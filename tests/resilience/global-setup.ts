import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import createTestDatabase from "../helpers/global-setup";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SOURCES = ["app", "lib", "db", "components", "pages", "instrumentation.ts", "next.config.ts", "server.ts", "proxy.ts", "package.json"];

/** Resilience tests drive the built server: build when the build is missing or older than the code. */
export default async function setup(project: TestProject) {
  if (isBuildStale()) {
    console.log("[resilience] building the app (next build)…");
    execSync("npm run build", { cwd: ROOT, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  }
  return createTestDatabase(project);
}

function isBuildStale(): boolean {
  const marker = path.join(ROOT, ".next", "BUILD_ID");
  if (!fs.existsSync(marker)) return true;
  const built = fs.statSync(marker).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(ROOT, s)) > built);
}

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}
