import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Issue 27, item 5: the screens read the API's answers as the contract types them. Each call of
// lib/api-client.ts names the response schema of what it reads (`api.get<typeof fileResponse>`,
// api-client.ts), imported from lib/contracts as a type only; a hand-written answer type does not
// compile there. This test keeps the other ways round it shut, and checks that the named schema is
// the one the called route declares.
const ROOT = path.resolve(import.meta.dirname, "../..");
const CLIENT_DIRS = ["components", "lib/queries", "lib/upload-client", "app/(app)", "app/(admin)", "app/(public)", "app/login"];

/** Requests outside lib/api-client.ts (fetch, XMLHttpRequest) that read no answer of the /api contract: each with its reason. */
const RAW_FETCH: Record<string, string> = {
  "lib/upload-client/chunked-upload.ts": "XMLHttpRequest for upload progress; it reads only a failure's error body, through apiErrorOf",
  "components/oauth2/consent-screen.tsx": "the OAuth2 provider's own endpoint (/oauth2/authorize, server.ts), outside /api: OAuth2's {redirect_to} or {error, error_description}",
  "components/file-preview/preview-dialog.tsx": "the first bytes of a text file (a Range request on a download), not JSON",
};

function walk(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) return walk(rel);
    return /\.tsx?$/.test(name) ? [rel] : [];
  });
}

const clientFiles = CLIENT_DIRS.flatMap(walk);
const read = (rel: string) => readFileSync(path.join(ROOT, rel), "utf8");

/** `import type { a, b as c } from "module"` → name → module (type-only imports only). */
function typeImports(source: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of source.matchAll(/import type \{([^}]*)\} from "([^"]+)"/g)) {
    for (const part of m[1].split(",")) {
      const name = part.trim().split(/\s+as\s+/).pop();
      if (name) names.set(name, m[2]);
    }
  }
  return names;
}

/** `import { a, type b } from "module"` → name → module, value and type imports alike. */
function allImports(source: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of source.matchAll(/import (?:type )?\{([^}]*)\} from "([^"]+)"/g)) {
    for (const part of m[1].split(",")) {
      const name = part.trim().replace(/^type\s+/, "").split(/\s+as\s+/).pop();
      if (name) names.set(name, m[2]);
    }
  }
  return names;
}

type Call = { file: string; line: number; method: string; schema: string | null; path: string | null };

/**
 * The path of a call's first argument when it is a literal /api path, each `${...}` segment as
 * `${}`; cut at the query string, or at an expression glued to a segment (`signatures${box}`,
 * `user${query}`), which the segment's literal part names.
 */
function literalPath(source: string, at: number): string | null {
  const quote = source[at];
  if ((quote !== '"' && quote !== "`") || !source.startsWith("/api/", at + 1)) return null;
  let out = "";
  for (let i = at + 1; i < source.length && source[i] !== quote && source[i] !== "?"; i++) {
    if (!source.startsWith("${", i)) {
      out += source[i];
      continue;
    }
    if (!out.endsWith("/")) break;
    for (let depth = 0; i < source.length; i++) {
      if (source[i] === "{") depth++;
      else if (source[i] === "}" && --depth === 0) break;
    }
    out += "${}";
  }
  return out;
}

/** Every api.get/post/put/delete/upload call, with the schema named and the literal /api path when there is one. */
function apiCalls(file: string, source = read(file)): Call[] {
  const calls: Call[] = [];
  for (const m of source.matchAll(/\bapi\.(get|post|put|delete|upload)\s*(<([^(]*)>)?\s*\(\s*/g)) {
    const typeArg = m[3]?.trim();
    const schema = typeArg === undefined ? null : (/^typeof (\w+)$/.exec(typeArg)?.[1] ?? `!${typeArg}`);
    const line = source.slice(0, m.index).split("\n").length;
    calls.push({ file, line, method: m[1] === "upload" ? "POST" : m[1].toUpperCase(), schema, path: literalPath(source, m.index + m[0].length) });
  }
  return calls;
}

const calls = clientFiles.flatMap((f) => apiCalls(f));

/**
 * The route file serving `apiPath` (`/api/share/${id}/activity`): literal segments first, then
 * [params]; a segment that ends in an expression (`signatures${box}`, `user${query}`) by its
 * literal part. "unknown" when the path itself is computed (`/api/${kind}/...`).
 */
function routeFileOf(apiPath: string): string | null | "unknown" {
  const segments = apiPath.replace(/^\/api\//, "").replace(/\/$/, "").split("/");
  let dir = "app/api";
  for (const segment of segments) {
    const dynamic = segment === "${}";
    const entries = readdirSync(path.join(ROOT, dir)).filter((e) => statSync(path.join(ROOT, dir, e)).isDirectory());
    const param = entries.find((e) => /^\[[^.\]]+\]$/.test(e));
    const next = !dynamic && entries.includes(segment) ? segment : param;
    if (!next) return dynamic ? "unknown" : null;
    dir = path.join(dir, next);
  }
  const file = path.join(dir, "route.ts");
  return existsSync(path.join(ROOT, file)) ? file : null;
}

/** The contracts' schemas a route answers with: what its file (or the endpoint file it delegates to) imports from lib/contracts. */
function routeSchemas(routeFile: string): Map<string, string> {
  const source = read(routeFile);
  const schemas = new Map([...allImports(source)].filter(([, module]) => module.startsWith("@/lib/contracts/")));
  for (const [, module] of allImports(source)) {
    if (!module.startsWith("@/lib/server/") || !/endpoint/i.test(module)) continue;
    const file = `${module.replace("@/", "")}.ts`;
    if (existsSync(path.join(ROOT, file))) for (const [name, m] of allImports(read(file))) if (m.startsWith("@/lib/contracts/")) schemas.set(name, m);
  }
  return schemas;
}

/** Whether `name` (from `module`) is one of the route's schemas, or a member of a union (or per-status answer) one of them is (`readFolderResponse`: a folder or search results). */
function answersWith(routeFile: string, name: string, module: string): boolean {
  const schemas = routeSchemas(routeFile);
  if (schemas.get(name) === module) return true;
  return [...schemas].some(([schema, m]) => new RegExp(`export const ${schema} = (z\\.union\\(\\[|\\{)[^;]*\\b${name}\\b`).test(read(`${m.replace("@/", "")}.ts`)));
}

const where = (c: Call) => `${c.file}:${c.line}`;

describe("the web client reads answers as the contract types them", () => {
  it("calls fetch only in lib/api-client.ts (and the listed exceptions, which read no answer)", () => {
    const offenders = clientFiles.filter((f) => /(?<![.\w])fetch\(|\bXMLHttpRequest\b/.test(read(f)) && !RAW_FETCH[f]);
    expect(offenders).toEqual([]);
  });

  it("declares no list envelope of its own (the contract's listResponse types it)", () => {
    const offenders = clientFiles.filter((f) => /type \w+(<\w+>)? = [^;]*\bnb_total_objects\b/.test(read(f)));
    expect(offenders).toEqual([]);
  });

  it("names a contract schema, imported as a type only, for every answer it reads", () => {
    expect(calls.length).toBeGreaterThan(150);
    const offenders = calls.flatMap((c) => {
      if (c.schema === null) return [];
      if (c.schema.startsWith("!")) return [`${where(c)}: <${c.schema.slice(1)}> is not \`typeof <schema>\``];
      const contractModule = typeImports(read(c.file)).get(c.schema);
      return contractModule?.startsWith("@/lib/contracts/") ? [] : [`${where(c)}: ${c.schema} is not imported with \`import type\` from lib/contracts`];
    });
    expect(offenders).toEqual([]);
  });

  it("names the schema the called route answers with", () => {
    const checked = calls.filter((c) => c.schema && !c.schema.startsWith("!") && c.path);
    // Paths built by helpers (itemPath, withAccess...) are not resolved here; the literal ones are most.
    expect(checked.length).toBeGreaterThan(100);
    const offenders = checked.flatMap((c) => {
      const routeFile = routeFileOf(c.path!);
      if (routeFile === "unknown") return [];
      if (!routeFile) return [`${where(c)}: no route serves ${c.path}`];
      const contractModule = typeImports(read(c.file)).get(c.schema!)!;
      return answersWith(routeFile, c.schema!, contractModule) ? [] : [`${where(c)}: ${routeFile} does not answer ${c.schema} (${contractModule})`];
    });
    expect(offenders).toEqual([]);
  });

  it("catches a hand-written answer type and a schema of another route", () => {
    const sample = 'api.get<{ token: string }>("/api/roots");\napi.post<typeof rootsResponse>(`/api/share/${id}`, {});\napi.delete(itemPath(item));';
    expect(apiCalls("sample.ts", sample).map((c) => [c.line, c.method, c.schema, c.path])).toEqual([
      [1, "GET", "!{ token: string }", "/api/roots"],
      [2, "POST", "rootsResponse", "/api/share/${}"],
      [3, "DELETE", null, null],
    ]);
    expect(routeFileOf("/api/share/${}/activity")).toBe("app/api/share/[shareId]/activity/route.ts");
    expect(answersWith("app/api/share/[shareId]/activity/route.ts", "shareActivityResponse", "@/lib/contracts/shares")).toBe(true);
    expect(answersWith("app/api/share/[shareId]/activity/route.ts", "shareResponse", "@/lib/contracts/shares")).toBe(false);
    expect(answersWith("app/api/folder/[folderId]/route.ts", "folderSearchResponse", "@/lib/contracts/folders")).toBe(true);
    expect(answersWith("app/api/file/[fileId]/route.ts", "folderSearchResponse", "@/lib/contracts/folders")).toBe(false);
  });
});
