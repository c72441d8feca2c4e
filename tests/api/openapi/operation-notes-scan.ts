import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";

// Issue 27, part 4: which error statuses an operation really answers beyond the ones every
// operation shares (400, 401, 403, 404; 413 and 415 for a JSON body), read from the code: the
// AppError codes thrown by the services its handler calls and by the lib/server modules those
// import (two levels; lib/server/http, the shared machinery, is left out). The result is written
// to lib/server/openapi/operation-notes.ts (UPDATE_ROUTE_LIST=1), with the comment above each export as its summary, which the document reads.

const ROOT = path.resolve(import.meta.dirname, "../../..");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** The statuses worth naming per operation, from lib/server/errors.ts's table. */
function statusOfCodes(): Map<string, number> {
  const source = readFileSync(path.join(ROOT, "lib/server/errors.ts"), "utf8");
  const table = source.slice(source.indexOf("const STATUS = {"), source.indexOf("} as const"));
  const map = new Map<string, number>();
  for (const [, code, status] of table.matchAll(/^\s*(\w+): (\d{3}),/gm)) {
    if (![400, 401, 403, 404, 500].includes(Number(status))) map.set(code, Number(status));
  }
  return map;
}

function resolveImport(from: string, spec: string): string | null {
  const base = spec.startsWith("@/") ? path.join(ROOT, spec.slice(2)) : spec.startsWith(".") ? path.join(path.dirname(from), spec) : null;
  if (!base) return null;
  return [`${base}.ts`, `${base}/index.ts`].find((f) => existsSync(f)) ?? null;
}

/** Imported name → file, for the lib/server modules a file imports. */
function importsOf(file: string, source: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const [, list, spec] of source.matchAll(/import\s+(?:type\s+)?\{([^}]+)\}\s+from\s+"([^"]+)"/g)) {
    const target = resolveImport(file, spec);
    if (!target || !target.includes(`${path.sep}lib${path.sep}server${path.sep}`) || target.includes(`${path.sep}http${path.sep}`)) continue;
    for (const name of list.split(",")) {
      const local = name.trim().split(/\s+as\s+/).pop()?.replace(/^type\s+/, "");
      if (local) names.set(local, target);
    }
  }
  return names;
}

function codesIn(file: string, depth: number, statuses: Map<string, number>, seen: Set<string>): Set<number> {
  const found = new Set<number>();
  if (seen.has(file)) return found;
  seen.add(file);
  const source = readFileSync(file, "utf8");
  for (const [, code] of source.matchAll(/AppError\(\s*"(\w+)"/g)) if (statuses.has(code)) found.add(statuses.get(code)!);
  if (depth > 0) for (const target of new Set(importsOf(file, source).values())) for (const s of codesIn(target, depth - 1, statuses, seen)) found.add(s);
  return found;
}

export type OperationNote = { summary?: string; errors?: number[] };

/** The comment line above an export (style.md: `// PUT /api/folder/(folderId): rename, move, quota`), without its method and path. */
function summaryBefore(previous: string, method: string): string | undefined {
  const lines = previous.trimEnd().split("\n");
  const last = lines[lines.length - 1]?.trim() ?? "";
  if (!last.startsWith("//")) return undefined;
  const text = last.replace(/^\/\/\s*/, "");
  const rest = text.startsWith(`${method} `) ? text.replace(/^\w+ \S+?:\s*/, "") : text;
  return rest === text && text.startsWith(`${method} `) ? undefined : rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** "METHOD /api/path" → its summary and extra statuses, for every route file's route() operations. */
export function scanOperationNotes(): Record<string, OperationNote> {
  const statuses = statusOfCodes();
  const api = path.join(ROOT, "app/api");
  const result: Record<string, OperationNote> = {};
  const files = (readdirSync(api, { recursive: true }) as string[]).filter((f) => f.endsWith("route.ts") && !f.includes("[...")).sort();
  for (const file of files) {
    const full = path.join(api, file);
    const source = readFileSync(full, "utf8");
    const imports = importsOf(full, source);
    const template = `/api/${path.posix.dirname(file.split(path.sep).join("/"))}`.replace(/\/\.$/, "").replace(/\[(\w+)\]/g, "{$1}");
    // Each `export const METHOD = …` up to the next export: the services its handler calls.
    const parts = source.split(/^export const /m);
    const byMethod = new Map<string, Set<number>>();
    const summaries = new Map<string, string | undefined>();
    for (const [index, part] of parts.entries()) {
      if (index === 0) continue;
      const method = part.match(/^(\w+)\s*=/)?.[1];
      if (!method || !METHODS.includes(method)) continue;
      summaries.set(method, summaryBefore(parts[index - 1], method));
      const alias = part.match(/^\w+\s*=\s*(\w+);/)?.[1];
      if (alias && byMethod.has(alias)) {
        byMethod.set(method, byMethod.get(alias)!);
        continue;
      }
      const found = new Set<number>();
      for (const [name, target] of imports) {
        if (new RegExp(`\\b${name}\\b`).test(part)) for (const s of codesIn(target, 1, statuses, new Set())) found.add(s);
      }
      byMethod.set(method, found);
    }
    for (const [method, found] of byMethod) {
      const note: OperationNote = {};
      if (summaries.get(method)) note.summary = summaries.get(method);
      if (found.size) note.errors = [...found].sort();
      if (note.summary || note.errors) result[`${method} ${template}`] = note;
    }
  }
  return result;
}

export function operationNotesFile(): string {
  const lines = Object.entries(scanOperationNotes()).map(([op, note]) => `  ${JSON.stringify(op)}: ${JSON.stringify(note)},`);
  return `// Generated by tests/api/openapi/operation-notes.test.ts (UPDATE_ROUTE_LIST=1 npx vitest run tests/api/openapi): for
// each route() operation, the comment above its export in the route file (its summary) and the error statuses it can
// answer besides 400, 401, 403, 404 (and 413/415 for a JSON body), from the AppError codes its services throw
// (tests/api/openapi/operation-notes-scan.ts). The OpenAPI document reads them.
export const OPERATION_NOTES: Record<string, { summary?: string; errors?: readonly number[] }> = {
${lines.join("\n")}
};
`;
}
