import fc from "fast-check";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rows, sql } from "@/db";
import { createAdmin, createTestUser, type TestUser } from "../helpers/factories";
import { onOwnDatabase } from "../helpers/own-database";
import type { Handler } from "@/lib/server/http/route";
import { callViaNode } from "../helpers/node-call";
import { listRoutes, type RouteModule } from "./route-catalogue";

// Malformed input on every route: never a 5xx, always the contract's error body, and a refused
// request changes nothing stored. Runs on a database of its own so that the whole database can
// be compared before and after each refused request.

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
// Tables that legitimately change on refused requests: the audit log (failed attempts are
// logged), throttling counters and session last-use times.
const VOLATILE = new Set(["logs", "login_throttles", "sessions", "__drizzle_migrations"]);
// Non-JSON protocols: tus answers in its own protocol; next-auth renders its own errors.
const OWN_ERROR_FORMAT = [/^\/api\/tus/];
// next-auth's handler needs Next's request scope (it calls cookies()), so it cannot be called
// directly; it is third-party code, exercised over HTTP by the end-to-end sign-in journeys.
const OUT_OF_SCOPE = [/^\/api\/auth\/\[\.\.\.nextauth\]/];

// Characters that must never reach storage unrefused: NUL (PostgreSQL rejects it in text) and
// Unicode format characters (bidirectional override, zero-width space, byte-order mark).
const POISON = ["\u0000", "\u202E", "\u200B", "\uFEFF"] as const;
const poisonChar = fc.option(fc.constantFrom(...POISON), { nil: undefined });

/** `value` with `char` inside every string (keys left alone), at a position of fast-check's choosing. */
function poisoned<T>(value: T, char: string | undefined, at: number): T {
  if (char === undefined) return value;
  const inject = (s: string) => s.slice(0, at % (s.length + 1)) + char + s.slice(at % (s.length + 1));
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return inject(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

const badSegment = fc.oneof(
  fc.constantFrom("abc", "-1", "0", "1", "2", "1.5", "99999999999999999999", "1e309", "NaN", "%00", "..", "null", "2147483000", "%E2%80%AE", "x".repeat(300)),
  fc.string({ maxLength: 30 }).map((s) => encodeURIComponent(s) || "z"),
);
const badValue = fc.oneof(
  fc.constantFrom("", "-5", "abc", "1e400", "@xyz", "NaN", "-1", "1", "99999999999999999999999", "true", "\u0000", "../../etc/passwd", "２０"),
  fc.string({ maxLength: 20 }),
);
const queryKeys = ["depth", "full", "light", "filter", "offset_start", "nb_objects", "recursive", "trash", "versions", "copy", "alert", "latest", "keyword", "user_id", "folder_id", "all", "type", "statut", "date_start", "date_end", "search_label", "size_start", "size_end", "creation_start", "modification_end", "token", "member_of", "object", "meta", "global"];
const fieldKeys = ["name", "parent_id", "folder_id", "target_id", "login", "password", "user", "email", "quota", "role", "groups", "members", "flags", "text", "hash", "token", "size", "target", "rights", "expiration", "language", "old_password", "new_password", "browse", "read", "write", "folderId", "filename", "chunk", "chunks"];
const weirdJson = fc.oneof(
  fc.constantFrom(null, -1, 1, 2, 1e308, true, "", [], {}, "x".repeat(5000), [1, 2], { nested: { deep: [null] } }, -9007199254740993, "plain name.txt"),
  fc.string({ maxLength: 40 }),
  fc.integer(),
);

// Multipart bodies as uploads send them (POST /file/upload, drop links, pictures), broken every
// way the parser and the chunked protocol can be: odd file names, fields over 64 KiB, more parts
// than allowed, chunk fields that contradict each other, truncated anywhere.
const uploadFieldKeys = ["folderId", "targetPath", "chunk", "chunks", "chunksSize", "fileSize", "fileHash", "report", "name"];
const oddFileName = fc.oneof(
  fc.constantFrom("a.txt", "", ".", "..", "../../etc/passwd", "a/b.txt", "a\\b.txt", "x".repeat(300), "invoice\u202Efdp.exe", "zero\u200Bwidth.txt", "\uFEFFbom.txt", "nul\u0000.txt", " lead.txt", "trail.txt ", "CON", "\u00e9t\u00e9.pdf", "quote\"d.txt"),
  fc.string({ maxLength: 30 }),
);
const uploadFieldValue = fc.oneof(fc.constantFrom("0", "1", "2", "3", "1000", "1000000", "-1", "", "abc", "1e3", "99999999999999999999", "d41d8cd98f00b204e9800998ecf8427e"), badValue);
const multipartBody = fc
  .record({
    fields: fc.array(fc.tuple(fc.constantFrom(...uploadFieldKeys), uploadFieldValue), { maxLength: 7 }),
    file: fc.option(fc.record({ name: oddFileName, field: fc.constantFrom("targetFile", "targetFile", "other"), size: fc.constantFrom(0, 1, 100, 5000, 70_000) }), { nil: undefined }),
    fileFirst: fc.boolean(),
    extra: fc.constantFrom("none", "none", "bigField", "manyParts"),
    cut: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    poison: poisonChar,
    at: fc.nat(),
  })
  .map(({ fields, file, fileFirst, extra, cut, poison, at }) => {
    const boundary = "fuzzBoundary7MA4YWxkTrZu0gW";
    const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const textParts = fields.map(([k, v]) => part(k, poisoned(v, poison, at)));
    if (extra === "bigField") textParts.push(part("junk", "x".repeat(70 * 1024)));
    if (extra === "manyParts") for (let i = 0; i < 80; i++) textParts.push(part(`f${i}`, "v"));
    const fileParts = file
      ? [`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${poisoned(file.name, poison, at)}"\r\nContent-Type: text/html\r\n\r\n${"A".repeat(file.size)}\r\n`]
      : [];
    let text = [...(fileFirst ? [...fileParts, ...textParts] : [...textParts, ...fileParts])].join("") + `--${boundary}--\r\n`;
    if (cut !== undefined) text = text.slice(0, Math.floor(text.length * cut));
    return { kind: "multipart" as const, contentType: `multipart/form-data; boundary=${boundary}`, text };
  });

const json = (text: string) => ({ kind: "json" as const, contentType: "application/json", text });
const body = fc.oneof(
  fc
    .tuple(fc.dictionary(fc.constantFrom(...fieldKeys), weirdJson, { maxKeys: 5 }), poisonChar, fc.nat())
    .map(([o, poison, at]) => json(JSON.stringify(poisoned(o, poison, at)))),
  fc.tuple(fc.anything({ maxDepth: 2 }), poisonChar, fc.nat()).map(([v, poison, at]) => json(JSON.stringify(poisoned(v, poison, at)) ?? "null")),
  fc.constantFrom("{", "{\"name\":", "[1,", "\u0000", "<xml/>", "name=x&parent_id=y").map(json),
  multipartBody,
  fc.constantFrom(
    { kind: "multipart" as const, contentType: "multipart/form-data; boundary=b", text: "--b\r\nContent-Disposition: form-data; name=\"targetFile\"; filename=\"a\"\r\n\r\nabc" },
    { kind: "multipart" as const, contentType: "multipart/form-data; boundary=b", text: "garbage without boundary" },
    { kind: "multipart" as const, contentType: "multipart/form-data", text: "--b\r\n" },
    { kind: "xml" as const, contentType: "text/xml", text: "<a>1</a>" },
  ),
);
const request = fc.record({
  segments: fc.array(badSegment, { minLength: 3, maxLength: 3 }),
  query: fc.dictionary(fc.constantFrom(...queryKeys), badValue, { maxKeys: 4 }),
  body,
  range: fc.option(fc.constantFrom("bytes=abc", "bytes=10-5", "bytes=-0", "bytes=999999999999-", "items=0-1", "bytes=0-1,5-9,x"), { nil: undefined }),
  asId: fc.option(fc.constantFrom("abc", "-1", "2147483000", ""), { nil: undefined }),
  // NUL or a format character inside every path segment and query value of the request.
  poison: poisonChar,
  at: fc.nat(),
});

let admin: TestUser;
let user: TestUser;
// A database of our own: other test files share theirs and change it concurrently.
onOwnDatabase("coffre_fuzz");

beforeAll(async () => {
  admin = await createAdmin();
  user = await createTestUser();
}, 120_000);

async function digest(): Promise<string> {
  const db = await getDb();
  const tables = rows<{ name: string }>(await db.execute(sql`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`))
    .map((t) => t.name)
    .filter((t) => !VOLATILE.has(t));
  const parts: string[] = [];
  for (const t of tables) {
    const [r] = rows<{ h: string | null }>(await db.execute(sql.raw(`SELECT md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h FROM "${t}" x`)));
    parts.push(`${t}:${r.h}`);
  }
  return parts.join(",");
}

describe("malformed input on every route", () => {
  const routes = listRoutes().filter((r) => !OUT_OF_SCOPE.some((re) => re.test(r.template)));

  it("finds the routes", () => {
    expect(routes.length).toBeGreaterThan(20);
  });

  for (const route of routes) {
    it(`${route.template}: no 5xx, the error body, nothing changed by a refusal`, async () => {
      const mod = (await import(route.file)) as RouteModule;
      const ownFormat = OWN_ERROR_FORMAT.some((re) => re.test(route.template));
      let before = await digest();
      await fc.assert(
        // viaNode: over HTTP through nodeRoute, as server.ts serves route() operations (issue 26); else as Next calls the export.
        fc.asyncProperty(fc.constantFrom(...METHODS), request, fc.boolean(), fc.boolean(), async (method, input, asOther, viaNode) => {
          const handler = mod[method] as Handler | undefined;
          if (typeof handler !== "function") return;
          // Signing out is a valid request whatever its input; it would only end the fuzz session.
          if (route.template === "/api/auth" && method === "DELETE") return;
          // Next decodes path segments before handing them to the route: a poisoned one arrives raw.
          const segments = input.segments.map((s) => poisoned(s, input.poison, input.at));
          const params = Object.fromEntries(route.params.map((p, i) => [p.name, p.catchAll ? [segments[i]] : segments[i]]));
          const url = new URL(`http://coffre.test${route.params.reduce((t, p, i) => t.replace(/\[+(\.\.\.)?[^\]]+\]+/, input.poison === undefined ? segments[i] : encodeURIComponent(segments[i])), route.template)}`);
          for (const [k, v] of Object.entries(input.query)) url.searchParams.set(k, poisoned(v, input.poison, input.at));
          const headers = new Headers({ authorization: `Bearer ${asOther ? user.token : admin.token}` });
          if (method !== "GET") headers.set("content-type", input.body.contentType);
          if (input.range) headers.set("range", input.range);
          if (input.asId !== undefined) headers.set("asid", input.asId);
          // Next hands route handlers a NextRequest; next-auth relies on it.
          const req = new NextRequest(url, { method, headers, body: method === "GET" ? undefined : input.body.text });
          // A request that never answers is a failure with its input (fast-check shrinks it), not a test timeout.
          const { res, text } = await withinSeconds(15, `${method} ${url.pathname}${url.search} (${viaNode ? "node" : "next"}) never answered`, async () => {
            const res =
              viaNode && handler.endpoint
                ? await callViaNode(handler, req, params as Record<string, string>, false)
                : await handler(req, { params: Promise.resolve(params) });
            return { res, text: await res.text() };
          });
          expect(res.status, `${method} ${url.pathname}${url.search} → ${res.status} ${text.slice(0, 300)}`).toBeLessThan(500);
          if (res.status >= 400) {
            if (!ownFormat) {
              expect(res.headers.get("content-type"), `${method} ${url.pathname}`).toMatch(/application\/json/);
              const parsed = JSON.parse(text);
              expect(typeof parsed.error).toBe("string");
              expect(typeof parsed.code).toBe("string");
            }
            const after = await digest();
            expect(after, `${method} ${url.pathname}${url.search} was refused (${res.status}) but changed stored data`).toBe(before);
          } else {
            before = await digest();
          }
        }),
        { numRuns: RUNS, endOnFailure: true },
      );
    });
  }
});

async function withinSeconds<T>(seconds: number, message: string, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), seconds * 1000);
  });
  try {
    return await Promise.race([work(), late]);
  } finally {
    clearTimeout(timer);
  }
}
