import { readdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { sessions } from "@/db/schema";
import { hashToken, newToken } from "@/lib/server/auth/tokens";
import { areaOf } from "@/lib/server/http/api-areas";
import type { Handler } from "@/lib/server/http/route";
import { downloadById } from "@/lib/server/downloads/serve-download";
import { nodeRoute } from "@/lib/server/http/node-route";
import { uploadFileEndpoint } from "@/lib/server/uploads/upload-endpoints";
import { createTestUser } from "../../helpers/factories";
import { uploadText } from "../../helpers/files";
import { serveNode } from "../../helpers/node-server";
import { call } from "../../helpers/http";

// Issue 16, part 3: every /api route belongs to an area, and an OAuth2 token reaches a route only
// with a scope of that area (read for GET and HEAD, readwrite otherwise), on every route.

const API = path.resolve(import.meta.dirname, "../../../app/api");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

type RouteCase = { file: string; path: string; method: (typeof METHODS)[number]; handler: Handler; params: Record<string, string> };

/** Every route file's implemented methods (the 405 fillers carry no spec), with a concrete path. */
async function routeCases(): Promise<RouteCase[]> {
  const files = (readdirSync(API, { recursive: true }) as string[]).filter((f) => f.endsWith("route.ts") && !f.startsWith("[...path]") && !f.includes("[...nextauth]"));
  const cases: RouteCase[] = [];
  for (const file of files.sort()) {
    const mod = (await import(path.join(API, file))) as Record<string, Handler>;
    const params: Record<string, string> = {};
    const segments = path
      .dirname(file)
      .split(path.sep)
      .filter((s) => s !== ".")
      .flatMap((segment) => {
        const optionalCatchAll = /^\[\[\.\.\.(\w+)\]\]$/.exec(segment);
        if (optionalCatchAll) return [];
        const param = /^\[(?:\.\.\.)?(\w+)\]$/.exec(segment);
        if (!param) return [segment];
        // An id nothing has: the operations answer 404 or 400 quickly (no thumbnail to wait for).
        params[param[1]] = "987654321";
        return ["987654321"];
      });
    for (const method of METHODS) {
      const handler = mod[method];
      if (handler?.spec) cases.push({ file, path: `/api/${segments.join("/")}`, method, handler, params });
    }
  }
  return cases;
}

async function tokenWithScope(userId: number, scope: string) {
  const token = newToken();
  await (await getDb()).insert(sessions).values({ tokenHash: hashToken(token), userId, kind: "api", scope });
  return token;
}

/** Routes of account holders; "none" and link visitors ("link": a link's access token) take no account token. */
const takesToken = (c: RouteCase) => c.handler.spec!.auth !== "none" && c.handler.spec!.auth !== "link";

let cases: RouteCase[];
let userId: number;
beforeAll(async () => {
  cases = await routeCases();
  userId = (await createTestUser({ role: 3 })).id;
});

describe("areas", () => {
  it("names an area for every route that takes a token", () => {
    expect(cases.length).toBeGreaterThan(100);
    const without = cases.filter((c) => takesToken(c) && areaOf(c.path) === null).map((c) => `${c.method} ${c.path}`);
    expect(without).toEqual([]);
  });

  it("names an area for the fast paths of server.ts", () => {
    for (const p of ["/api/file/1/download", "/api/file/download", "/api/file/upload", "/api/file/1/upload", "/api/tus/abc"]) {
      expect(areaOf(p), p).toBe("files");
    }
    expect(areaOf("/api/zip/share/abc")).toBe("sharelinks");
    expect(areaOf("/api/ulink/key/abc/upload")).toBe("uploadlinks");
  });
});

describe("scopes on the fast paths (real HTTP on the Node handlers server.ts mounts)", () => {
  it("refuses a download and an upload to a token without files scopes, and lets files.read download", async () => {
    const owner = await createTestUser();
    // The API names a file by its version id.
    const { version } = await uploadText(owner, owner.privateRootId!, "scoped.txt", "scoped bytes");
    const download = await serveNode((req, res) => downloadById(req, res));
    const upload = await serveNode((req, res) => nodeRoute(uploadFileEndpoint)(req, res, {}));
    try {
      const get = (token: string) => fetch(`${download.url}/api/file/${version.id}/download`, { headers: { authorization: `Bearer ${token}` } });
      const refused = await get(await tokenWithScope(owner.id, "users.readwrite"));
      expect(refused.status).toBe(403);
      expect(refused.headers.get("www-authenticate")).toBe('Bearer error="insufficient_scope", scope="files.read"');
      const allowed = await get(await tokenWithScope(owner.id, "files.read"));
      expect(allowed.status, await allowed.clone().text()).toBe(200);
      expect(await allowed.text()).toBe("scoped bytes");

      const form = new FormData();
      form.set("folderId", String(owner.privateRootId));
      form.set("targetFile", new Blob(["new bytes"]), "new.txt");
      const put = (token: string) => fetch(`${upload.url}/api/file/upload`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
      const readOnly = await put(await tokenWithScope(owner.id, "files.read"));
      expect(readOnly.status).toBe(403);
      expect((await readOnly.json()).code).toBe("insufficient_scope");
      expect((await put(await tokenWithScope(owner.id, "files.readwrite"))).status).toBe(201);
    } finally {
      await download.close();
      await upload.close();
    }
  });
});

const isScopeRefusal = (r: { status: number; body: any; headers: Headers }) => r.status === 403 && r.body?.code === "insufficient_scope";

describe("scopes on every route (an administrator's OAuth2 token)", () => {
  it("refuses every route to a token holding no area scope, with the RFC 6750 challenge", async () => {
    const token = await tokenWithScope(userId, "offline");
    const passed: string[] = [];
    for (const c of cases.filter((c) => takesToken(c))) {
      const result = await call(c.handler, { method: c.method, path: c.path, token, params: c.params, body: c.handler.spec!.body ? {} : undefined });
      if (!isScopeRefusal(result)) passed.push(`${c.method} ${c.path} → ${result.status}`);
      else expect(result.headers.get("www-authenticate")).toMatch(/^Bearer error="insufficient_scope", scope="\w+\.(read|readwrite)"$/);
    }
    expect(passed).toEqual([]);
  });

  it("lets a read scope of the route's area read, and refuses it the changes", async () => {
    const wrong: string[] = [];
    const tokens = new Map<string, string>();
    for (const c of cases.filter((c) => takesToken(c))) {
      const area = areaOf(c.path)!;
      if (!tokens.has(area)) tokens.set(area, await tokenWithScope(userId, `${area}.read`));
      const result = await call(c.handler, { method: c.method, path: c.path, token: tokens.get(area), params: c.params, body: c.handler.spec!.body ? {} : undefined });
      const reading = c.method === "GET";
      if (reading === isScopeRefusal(result)) wrong.push(`${c.method} ${c.path} with ${area}.read → ${result.status} ${result.body?.code}`);
    }
    expect(wrong).toEqual([]);
  });

  it("lets a readwrite scope of the route's area through, and refuses one of another area", async () => {
    const wrong: string[] = [];
    for (const c of cases.filter((c) => takesToken(c))) {
      const area = areaOf(c.path)!;
      const other = area === "files" ? "users" : "files";
      const right = await call(c.handler, { method: c.method, path: c.path, token: await tokenWithScope(userId, `${area}.readwrite`), params: c.params, body: c.handler.spec!.body ? {} : undefined });
      const elsewhere = await call(c.handler, { method: c.method, path: c.path, token: await tokenWithScope(userId, `${other}.readwrite`), params: c.params, body: c.handler.spec!.body ? {} : undefined });
      if (isScopeRefusal(right)) wrong.push(`${c.method} ${c.path}: ${area}.readwrite refused`);
      if (!isScopeRefusal(elsewhere)) wrong.push(`${c.method} ${c.path}: ${other}.readwrite → ${elsewhere.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it("treats `all` as every scope, and leaves sign-in sessions (no scope) unrestricted", async () => {
    const all = await tokenWithScope(userId, "all");
    const account = cases.find((c) => c.path === "/api/account" && c.method === "GET")!;
    expect((await call(account.handler, { path: account.path, token: all })).status).toBe(200);
    const signIn = newToken();
    await (await getDb()).insert(sessions).values({ tokenHash: hashToken(signIn), userId, kind: "api" });
    expect((await call(account.handler, { path: account.path, token: signIn })).status).toBe(200);
  });
});
