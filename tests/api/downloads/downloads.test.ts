import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { events } from "@/db/schema";
import { downloadById, downloadByToken } from "@/lib/server/downloads/serve-download";
import { createFileToken } from "@/lib/server/tokens/create-file-token";
import { createExpiredToken, createTestUser, type TestUser } from "../../helpers/factories";
import { serveNode } from "../../helpers/node-server";
import { allRightsBut, createFolder, ctxFor, grantRight } from "../../helpers/files";
import { md5, openDatabase, randomFile, uploadBytes } from "../../helpers/upload-factories";

// The download routes answer on Node's own response (pages/api), so they are tested over real HTTP.
let server: Awaited<ReturnType<typeof serveNode>>;
let base = "";

beforeAll(async () => {
  server = await serveNode((req, res) => (req.url?.startsWith("/api/file/download") ? downloadByToken(req, res) : downloadById(req, res)));
  base = server.url;
});
afterAll(async () => {
  await server.close();
});

async function get(path: string, options: { token?: string | null; headers?: Record<string, string>; method?: string } = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const res = await fetch(`${base}${path}`, { method: options.method ?? "GET", headers });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body, json: () => JSON.parse(body.toString()) };
}

async function downloadsOf(fileId: number) {
  const db = await getDb();
  return (await db.select().from(events).where(and(eq(events.targetType, "file"), eq(events.targetId, fileId), eq(events.type, 3)))).length;
}

const expectJsonError = (res: Awaited<ReturnType<typeof get>>, status: number, code?: string) => {
  expect(res.status, res.body.toString()).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  const body = res.json();
  expect(typeof body.error).toBe("string");
  if (code) expect(body.code).toBe(code);
};

beforeAll(openDatabase, 180_000);

describe("GET /file/(fileId)/download", () => {
  let user: TestUser;
  const source = randomFile(3 * 1024 * 1024 + 17);
  let versionId = 0;
  let fileId = 0;

  beforeAll(async () => {
    user = await createTestUser();
    const { version, file } = await uploadBytes(user, user.privateRootId!, "data.bin", source.data);
    versionId = version.id;
    fileId = file.id;
  });

  it("streams the whole file with Content-Length, ETag, type, disposition, nosniff and no-transform", async () => {
    const before = await downloadsOf(fileId);
    const res = await get(`/api/file/${versionId}/download`, { token: user.token });
    expect(res.status).toBe(200);
    expect(md5(res.body)).toBe(source.md5);
    expect(res.headers.get("content-length")).toBe(String(source.data.length));
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("etag")).toBe(`"${source.md5}"`);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="data.bin"; filename*=UTF-8''data.bin`);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toMatch(/private.*no-transform/);
    expect(await downloadsOf(fileId)).toBe(before + 1);
  });

  it("serves single, suffix and open ranges with 206 and Content-Range, and counts one download per download", async () => {
    const size = source.data.length;
    const before = await downloadsOf(fileId);
    const first = await get(`/api/file/${versionId}/download`, { token: user.token, headers: { range: "bytes=0-99" } });
    expect(first.status).toBe(206);
    expect(first.headers.get("content-range")).toBe(`bytes 0-99/${size}`);
    expect(first.headers.get("content-length")).toBe("100");
    expect(first.body.equals(source.data.subarray(0, 100))).toBe(true);

    const middle = await get(`/api/file/${versionId}/download`, { token: user.token, headers: { range: "bytes=1048576-2097151" } });
    expect(middle.status).toBe(206);
    expect(middle.headers.get("content-range")).toBe(`bytes 1048576-2097151/${size}`);
    expect(middle.body.equals(source.data.subarray(1048576, 2097152))).toBe(true);

    const suffix = await get(`/api/file/${versionId}/download`, { token: user.token, headers: { range: "bytes=-500" } });
    expect(suffix.status).toBe(206);
    expect(suffix.headers.get("content-range")).toBe(`bytes ${size - 500}-${size - 1}/${size}`);
    expect(suffix.body.equals(source.data.subarray(size - 500))).toBe(true);

    const open = await get(`/api/file/${versionId}/download`, { token: user.token, headers: { range: `bytes=${size - 10}-` } });
    expect(open.status).toBe(206);
    expect(open.headers.get("content-length")).toBe("10");
    expect(open.body.equals(source.data.subarray(size - 10))).toBe(true);

    const past = await get(`/api/file/${versionId}/download`, { token: user.token, headers: { range: "bytes=100-5000000" } });
    expect(past.status).toBe(206);
    expect(past.headers.get("content-range")).toBe(`bytes 100-${size - 1}/${size}`);
    // Only the range starting at the first byte counted as a download.
    expect(await downloadsOf(fileId)).toBe(before + 1);
  });

  it("answers 416 with Content-Range */size for a range past the end; ignores several ranges (200)", async () => {
    const size = source.data.length;
    const res = await get(`/api/file/${versionId}/download`, { token: user.token, headers: { range: `bytes=${size}-` } });
    expectJsonError(res, 416, "range_not_satisfiable");
    expect(res.headers.get("content-range")).toBe(`bytes */${size}`);
    const several = await get(`/api/file/${versionId}/download`, { token: user.token, headers: { range: "bytes=0-9,20-29" } });
    expect(several.status).toBe(200);
    expect(several.body.length).toBe(size);
    const garbage = await get(`/api/file/${versionId}/download`, { token: user.token, headers: { range: "bytes=abc" } });
    expect(garbage.status).toBe(200);
  });

  it("answers 304 to If-None-Match with the ETag, and ignores a stale If-Range", async () => {
    const before = await downloadsOf(fileId);
    const etag = `"${source.md5}"`;
    const cached = await get(`/api/file/${versionId}/download`, { token: user.token, headers: { "if-none-match": `"other", ${etag}` } });
    expect(cached.status).toBe(304);
    expect(cached.body.length).toBe(0);
    expect(cached.headers.get("etag")).toBe(etag);
    expect((await get(`/api/file/${versionId}/download`, { token: user.token, headers: { "if-none-match": '"other"' } })).status).toBe(200);
    const stale = await get(`/api/file/${versionId}/download`, { token: user.token, headers: { range: "bytes=10-19", "if-range": '"old"' } });
    expect(stale.status).toBe(200);
    expect(await downloadsOf(fileId)).toBe(before + 2);
  });

  it("answers HEAD with the headers only, and refuses other methods (405)", async () => {
    const before = await downloadsOf(fileId);
    const head = await get(`/api/file/${versionId}/download`, { token: user.token, method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(source.data.length));
    expect(head.body.length).toBe(0);
    expect(await downloadsOf(fileId)).toBe(before);
    const post = await get(`/api/file/${versionId}/download`, { token: user.token, method: "POST" });
    expectJsonError(post, 405, "method_not_allowed");
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });

  it("names a non-ASCII file per RFC 6266 and serves its mime type", async () => {
    const { version } = await uploadBytes(user, user.privateRootId!, "Résumé 日本 (1).txt", Buffer.from("hello"), "text/plain");
    const res = await get(`/api/file/${version.id}/download`, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="Resume __ (1).txt"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%E6%97%A5%E6%9C%AC%20%281%29.txt`);
  });

  it("serves the newest version with latest, an older one without", async () => {
    const first = await uploadBytes(user, user.privateRootId!, "v.txt", Buffer.from("one"));
    await uploadBytes(user, user.privateRootId!, "v.txt", Buffer.from("two!"));
    expect((await get(`/api/file/${first.version.id}/download`, { token: user.token })).body.toString()).toBe("one");
    expect((await get(`/api/file/${first.version.id}/download?latest=1`, { token: user.token })).body.toString()).toBe("two!");
  });

  it("serves an empty file as 200 with Content-Length 0", async () => {
    const { version } = await uploadBytes(user, user.privateRootId!, "empty.txt", new Uint8Array(0));
    const res = await get(`/api/file/${version.id}/download`, { token: user.token, headers: { range: "bytes=0-" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe("0");
  });

  it("needs the download right (403); unknown is 404; no or expired token is 401", async () => {
    const other = await createTestUser();
    const folder = await createFolder(user, user.privateRootId!, "team");
    const { version } = await uploadBytes(user, folder.id, "secret.txt", Buffer.from("secret"));
    expectJsonError(await get(`/api/file/${version.id}/download`, { token: other.token }), 403, "forbidden");
    await grantRight(folder.id, other.id, allRightsBut("download"));
    expectJsonError(await get(`/api/file/${version.id}/download`, { token: other.token }), 403, "forbidden");
    await grantRight(folder.id, other.id, { read: true, download: true });
    expect((await get(`/api/file/${version.id}/download`, { token: other.token })).body.toString()).toBe("secret");
    expectJsonError(await get(`/api/file/2000000000/download`, { token: user.token }), 404, "not_found");
    expectJsonError(await get(`/api/file/abc/download`, { token: user.token }), 400, "invalid_request");
    expectJsonError(await get(`/api/file/${version.id}/download`), 401, "unauthorized");
    expectJsonError(await get(`/api/file/${version.id}/download`, { token: await createExpiredToken(user.id) }), 401, "unauthorized");
    const headError = await get(`/api/file/${version.id}/download`, { method: "HEAD" });
    expect(headError.status).toBe(401);
    expect(headError.body.length).toBe(0);
  });
});

describe("GET /file/download?token=", () => {
  it("serves the version of a download token, with ranges, and counts the download for the token's user", async () => {
    const user = await createTestUser();
    const source = randomFile(200_000);
    const { version, file } = await uploadBytes(user, user.privateRootId!, "shared.bin", source.data);
    const { token } = await createFileToken(await ctxFor(user), version.id, "download");
    const res = await get(`/api/file/download?token=${encodeURIComponent(token)}`);
    expect(res.status).toBe(200);
    expect(md5(res.body)).toBe(source.md5);
    expect(res.headers.get("content-length")).toBe("200000");
    expect(res.headers.get("content-disposition")).toContain("shared.bin");
    const part = await get(`/api/file/download?token=${encodeURIComponent(token)}`, { headers: { range: "bytes=-1000" } });
    expect(part.status).toBe(206);
    expect(part.body.equals(source.data.subarray(199_000))).toBe(true);
    const db = await getDb();
    const recorded = await db.select().from(events).where(and(eq(events.targetId, file.id), eq(events.type, 3)));
    expect(recorded.map((e) => e.actorId)).toEqual([user.id]);
  });

  it("refuses a token of another type, an unknown token (403) and a missing token (400)", async () => {
    const user = await createTestUser();
    const { version } = await uploadBytes(user, user.privateRootId!, "p.txt", Buffer.from("p"));
    const { token } = await createFileToken(await ctxFor(user), version.id, "preview");
    expectJsonError(await get(`/api/file/download?token=${encodeURIComponent(token)}`), 403, "forbidden");
    expectJsonError(await get(`/api/file/download?token=nope`), 403, "forbidden");
    expectJsonError(await get(`/api/file/download`), 400, "invalid_request");
  });
});
