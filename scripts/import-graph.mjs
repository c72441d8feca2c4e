#!/usr/bin/env node
// Prints the graph of imports between the code's layers and fails (exit 1) on an arrow that goes
// back: `node scripts/import-graph.mjs` (issue 19, part 2). ESLint enforces the same rules file by
// file (eslint.config.mjs, import/no-restricted-paths); this script shows the whole picture.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");

/** A file's layer, from its path below the root; null for files outside the layers (tests, scripts). */
function layerOf(file) {
  if (/^(app|pages)\//.test(file) || /^(server|instrumentation|proxy)\.ts$/.test(file)) return "app";
  if (file.startsWith("components/")) return "components";
  if (file.startsWith("lib/queries/") || file === "lib/api-client.ts") return "client";
  if (file.startsWith("lib/i18n/")) return "i18n";
  if (file.startsWith("lib/contracts/")) return "contracts";
  if (file.startsWith("lib/server/")) return "server";
  if (file.startsWith("lib/storage/")) return "storage";
  if (file.startsWith("lib/config/")) return "config";
  if (file.startsWith("db/")) return "db";
  return null;
}

/** Which layers each layer may import (itself included): app -> lib/server -> db/storage, never back. */
export const ALLOWED = {
  app: ["app", "components", "client", "i18n", "contracts", "server", "db", "storage", "config"],
  components: ["components", "client", "i18n", "contracts"],
  client: ["client", "i18n", "contracts"],
  i18n: ["i18n"],
  server: ["server", "i18n", "contracts", "db", "storage", "config"],
  db: ["db", "config"],
  storage: ["storage", "config"],
  contracts: ["contracts"],
  config: ["config"],
};

const SOURCES = ["app", "pages", "components", "lib", "db", "server.ts", "instrumentation.ts", "proxy.ts"];
const IMPORT = /(?:^|[^\w.])(?:import|export)\s+(?:type\s+)?(?:[^"'`;]*?\s+from\s+)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

function* files(entry) {
  const full = path.join(ROOT, entry);
  let stat;
  try {
    stat = statSync(full);
  } catch {
    return;
  }
  if (stat.isFile()) {
    if (/\.(ts|tsx|mjs|js)$/.test(entry)) yield entry;
    return;
  }
  for (const name of readdirSync(full)) yield* files(path.posix.join(entry, name));
}

/** The imported file's path below the root, or null for a package. */
function target(from, specifier) {
  if (specifier.startsWith("@/")) return specifier.slice(2);
  if (specifier.startsWith(".")) return path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  return null;
}

export function importGraph() {
  const edges = new Map();
  const back = [];
  for (const source of SOURCES) {
    for (const file of files(source)) {
      const from = layerOf(file);
      if (!from) continue;
      const text = readFileSync(path.join(ROOT, file), "utf8");
      for (const match of text.matchAll(IMPORT)) {
        const imported = target(file, match[1] ?? match[2]);
        const to = imported && layerOf(imported);
        if (!to || to === from) continue;
        const key = `${from} -> ${to}`;
        edges.set(key, (edges.get(key) ?? 0) + 1);
        if (!ALLOWED[from].includes(to)) back.push(`${file} imports ${imported} (${key})`);
      }
    }
  }
  return { edges, back };
}

if (process.argv[1] === import.meta.filename) {
  const { edges, back } = importGraph();
  for (const [key, count] of [...edges].sort()) console.log(`${key.padEnd(28)} ${count}`);
  if (back.length) {
    console.error(`\n${back.length} import(s) against the layers:`);
    for (const line of back) console.error(`  ${line}`);
    process.exit(1);
  }
  console.log("\nNo arrow back.");
}
