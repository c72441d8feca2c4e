import fs from "node:fs/promises";
import { eq } from "drizzle-orm";
import { Upload } from "tus-js-client";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { fileLocks, uploads, users } from "@/db/schema";
import { fileResponse } from "@/lib/contracts/files";
import { tusSessionResponse } from "@/lib/contracts/uploads";
import { tusFile, tusUploadId } from "@/lib/server/uploads/upload-sessions";
import { POST as fileTus } from "@/app/api/file/tus/route";
import * as tusRoute from "@/app/api/tus/[[...path]]/route";
import { createTestUser, type TestUser } from "../../helpers/factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { filesNamed, openDatabase, randomFile, startRouteServer, storedMd5 } from "../../helpers/upload-factories";

const b64 = (s: string) => Buffer.from(s).toString("base64");

async function openSession(user: TestUser, body: { name: string; target: number; size: number }): Promise<string> {
  const res = await call(fileTus, { method: "POST", token: user.token, body });
  expect(res.status, res.text).toBe(201);
  return tusSessionResponse.parse(res.body)[0].sessionKey;
}

/** A tus request straight to the route handler. */
async function tus(method: "POST" | "HEAD" | "PATCH" | "DELETE" | "OPTIONS", path: string, options: { token?: string | null; headers?: Record<string, string>; body?: Uint8Array } = {}) {
  const headers = new Headers({ "tus-resumable": "1.0.0", ...options.headers });
  if (options.token) headers.set("authorization", `Bearer ${options.token}`);
  const req = new Request(`http://coffre.test${path}`, { method, headers, body: options.body as BodyInit | undefined, duplex: "half" } as RequestInit);
  const res = await tusRoute[method](req);
  const text = method === "HEAD" ? "" : await res.text();
  return { status: res.status, headers: res.headers, text, body: text.startsWith("{") ? JSON.parse(text) : undefined };
}

const create = (user: TestUser, key: string, size: number, extra: Record<string, string> = {}) =>
  tus("POST", "/api/tus", { token: user.token, headers: { "upload-length": String(size), "upload-metadata": `token ${b64(key)},filename ${b64("x")}`, ...extra } });

const patch = (user: TestUser, location: string, offset: number, data: Uint8Array) =>
  tus("PATCH", location, { token: user.token, headers: { "upload-offset": String(offset), "content-type": "application/offset+octet-stream" }, body: data });

beforeAll(openDatabase, 180_000);

describe("POST /file/tus and the tus server at /api/tus", () => {
  it("opens a session, receives the bytes in pieces, resumes from HEAD, and finalises into a byte-identical file", async () => {
    const user = await createTestUser();
    const source = randomFile(2 * 1024 * 1024 + 77);
    const key = await openSession(user, { name: "video.bin", target: user.privateRootId!, size: source.data.length });

    const created = await create(user, key, source.data.length);
    expect(created.status, created.text).toBe(201);
    const location = created.headers.get("location")!;
    expect(location).toBe(`/api/tus/${tusUploadId(key)}`);
    // The session key is a credential: it is not written next to the data.
    expect(await fs.readFile(`${tusFile(tusUploadId(key))}.json`, "utf8")).not.toContain(b64(key));

    const half = 1024 * 1024;
    const first = await patch(user, location, 0, source.data.subarray(0, half));
    expect(first.status, first.text).toBe(204);
    expect(first.headers.get("upload-offset")).toBe(String(half));

    const early = await call(fileTus, { method: "POST", token: user.token, body: { token: key } });
    expectError(early, 409, "conflict");
    expect(early.body.details).toEqual({ offset: half, size: source.data.length });

    const head = await tus("HEAD", location, { token: user.token });
    expect(head.status).toBe(200);
    expect(head.headers.get("upload-offset")).toBe(String(half));
    expect(head.headers.get("upload-length")).toBe(String(source.data.length));
    expectError(await patch(user, location, 0, source.data.subarray(0, 10)), 409);
    const rest = await patch(user, location, half, source.data.subarray(half));
    expect(rest.status, rest.text).toBe(204);
    expect(await filesNamed(user.privateRootId!, "video.bin")).toHaveLength(0);

    const done = await call(fileTus, { method: "POST", token: user.token, body: { token: key } });
    expect(done.status, done.text).toBe(201);
    const json = fileResponse.parse(done.body);
    expect(json).toMatchObject({ name: "video.bin", parent_id: user.privateRootId, size: source.data.length, hash: source.md5 });
    expect(await storedMd5(json.id)).toEqual({ md5: source.md5, size: source.data.length });
    // Session, data and info file are gone; the key cannot finish twice.
    const db = await getDb();
    expect(await db.select().from(uploads).where(eq(uploads.id, tusUploadId(key)))).toHaveLength(0);
    await expect(fs.stat(tusFile(tusUploadId(key)))).rejects.toThrow();
    await expect(fs.stat(`${tusFile(tusUploadId(key))}.json`)).rejects.toThrow();
    expectError(await call(fileTus, { method: "POST", token: user.token, body: { token: key } }), 404, "not_found");
  });

  it("resumes after a server restart (new tus server, new store) and still ends byte-identical", async () => {
    const user = await createTestUser();
    const source = randomFile(600 * 1024);
    const key = await openSession(user, { name: "restart.bin", target: user.privateRootId!, size: source.data.length });
    const location = (await create(user, key, source.data.length)).headers.get("location")!;
    expect((await patch(user, location, 0, source.data.subarray(0, 250_000))).status).toBe(204);
    // A restart: the process forgets the tus server, its locks and its running hashes; the disk stays.
    delete (globalThis as { __coffreTus?: unknown }).__coffreTus;
    const head = await tus("HEAD", location, { token: user.token });
    expect(head.headers.get("upload-offset")).toBe("250000");
    expect((await patch(user, location, 250_000, source.data.subarray(250_000))).status).toBe(204);
    const done = await call(fileTus, { method: "POST", token: user.token, body: { token: key } });
    expect(done.status, done.text).toBe(201);
    expect(done.body.hash).toBe(source.md5);
    expect(await storedMd5(done.body.id)).toEqual({ md5: source.md5, size: source.data.length });
  });

  it("answers OPTIONS and terminates with DELETE", async () => {
    const user = await createTestUser();
    const options = await tus("OPTIONS", "/api/tus");
    expect(options.status).toBe(204);
    expect(options.headers.get("tus-version")).toContain("1.0.0");
    expect(options.headers.get("tus-extension")).toContain("creation");
    const key = await openSession(user, { name: "gone.bin", target: user.privateRootId!, size: 10 });
    const location = (await create(user, key, 10)).headers.get("location")!;
    expect((await tus("DELETE", location, { token: user.token })).status).toBe(204);
    expect((await tus("HEAD", location, { token: user.token })).status).toBe(404);
  });

  it("checks the session on every tus request: metadata token, declared length, owner, authentication", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    const key = await openSession(user, { name: "mine.bin", target: user.privateRootId!, size: 100 });

    const noToken = await tus("POST", "/api/tus", { token: user.token, headers: { "upload-length": "100", "upload-metadata": `filename ${b64("x")}` } });
    expect(noToken.status).toBe(400);
    expect(noToken.headers.get("content-type")).toBe("application/json");
    expect(noToken.body.code).toBe("invalid_request");
    expect((await create(user, key, 101)).status).toBe(400);
    expect((await create(user, "not-a-session-key-at-all", 100)).status).toBe(404);
    expect((await create(other, key, 100)).status).toBe(404);
    const anonymous = await tus("POST", "/api/tus", { headers: { "upload-length": "100", "upload-metadata": `token ${b64(key)}` } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe("unauthorized");

    const location = (await create(user, key, 100)).headers.get("location")!;
    expect((await tus("HEAD", location, { token: other.token })).status).toBe(404);
    expect((await patch(other, location, 0, new Uint8Array(100))).status).toBe(404);
    expect((await tus("HEAD", location)).status).toBe(401);
    expectError(await call(fileTus, { method: "POST", token: other.token, body: { token: key } }), 404, "not_found");
  });

  it("refuses to open a session over the quota (507), without the right (403), elsewhere (404) or with a bad name (400)", async () => {
    const owner = await createTestUser();
    const db = await getDb();
    await db.update(users).set({ quota: 1000 }).where(eq(users.id, owner.id));
    expectError(await call(fileTus, { method: "POST", token: owner.token, body: { name: "big.bin", target: owner.privateRootId, size: 1001 } }), 507, "insufficient_storage");
    expectError(await call(fileTus, { method: "POST", token: owner.token, body: { name: "a/b", target: owner.privateRootId, size: 1 } }), 400, "invalid_name");
    expectError(await call(fileTus, { method: "POST", token: owner.token, body: { name: "a", target: owner.privateRootId, size: -1 } }), 400, "invalid_request");

    const other = await createTestUser();
    const shared = await createFolder(owner, owner.privateRootId!, "team");
    await uploadText(owner, shared.id, "doc.txt", "v1");
    await grantRight(shared.id, other.id, allRightsBut("write"));
    expectError(await call(fileTus, { method: "POST", token: other.token, body: { name: "new.bin", target: shared.id, size: 1 } }), 403, "forbidden");
    await grantRight(shared.id, other.id, allRightsBut("edit"));
    expectError(await call(fileTus, { method: "POST", token: other.token, body: { name: "doc.txt", target: shared.id, size: 1 } }), 403, "forbidden");
    const stranger = await createTestUser();
    expectError(await call(fileTus, { method: "POST", token: stranger.token, body: { name: "x.bin", target: shared.id, size: 1 } }), 404, "not_found");
    await expectAuthRequired(fileTus, { method: "POST", body: { name: "x.bin", target: shared.id, size: 1 } });
  });

  it("refuses to finalise into a file locked by another user meanwhile (423), keeping nothing visible", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const { file } = await uploadText(owner, owner.privateRootId!, "shared.txt", "v1");
    await grantRight(owner.privateRootId!, other.id, allRightsBut());
    const key = await openSession(other, { name: "shared.txt", target: owner.privateRootId!, size: 3 });
    const location = (await create(other, key, 3)).headers.get("location")!;
    expect((await patch(other, location, 0, Buffer.from("new"))).status).toBe(204);
    const db = await getDb();
    await db.insert(fileLocks).values({ fileId: file.id, ownerId: owner.id });
    expectError(await call(fileTus, { method: "POST", token: other.token, body: { token: key } }), 423, "locked");
    const [found] = await filesNamed(owner.privateRootId!, "shared.txt");
    expect(found.versions).toHaveLength(1);
  });

  it("lets tus-js-client resume an upload that was cut off, over real HTTP", async () => {
    const user = await createTestUser();
    // Large enough for the running MD5 to be computed on the worker thread, across both attempts.
    const source = randomFile(9 * 1024 * 1024);
    const key = await openSession(user, { name: "resumed.bin", target: user.privateRootId!, size: source.data.length });
    const server = await startRouteServer((method, pathname) => {
      if (pathname === "/api/file/tus") return fileTus;
      if (pathname.startsWith("/api/tus")) return tusRoute[method as "POST"];
      return undefined;
    });
    try {
      const options = {
        endpoint: `${server.url}/api/tus`,
        metadata: { token: key, filename: "resumed.bin", filetype: "application/octet-stream" },
        headers: { Authorization: `Bearer ${user.token}` },
        chunkSize: 1024 * 1024,
        retryDelays: null,
        storeFingerprintForResuming: false,
      };
      // First attempt: cut off once about 40% has been sent.
      const uploadUrl = await new Promise<string>((resolve, reject) => {
        const upload = new Upload(source.data, {
          ...options,
          onProgress: (sent) => {
            if (sent >= 3.5 * 1024 * 1024 && upload.url) {
              void upload.abort().then(() => resolve(upload.url!));
            }
          },
          onSuccess: () => reject(new Error("the upload should have been cut off")),
          onError: reject,
        });
        upload.start();
      });
      const head = await tus("HEAD", new URL(uploadUrl).pathname, { token: user.token });
      const offset = Number(head.headers.get("upload-offset"));
      expect(offset).toBeGreaterThan(0);
      expect(offset).toBeLessThan(source.data.length);

      // Second attempt: a new client resumes from the server's offset, not from zero.
      let firstProgress = -1;
      await new Promise<void>((resolve, reject) => {
        const upload = new Upload(source.data, {
          ...options,
          uploadUrl,
          onProgress: (sent) => {
            if (firstProgress < 0) firstProgress = sent;
          },
          onSuccess: () => resolve(),
          onError: reject,
        });
        upload.start();
      });
      expect(firstProgress).toBeGreaterThanOrEqual(offset);

      const done = await fetch(`${server.url}/api/file/tus`, {
        method: "POST",
        headers: { Authorization: `Bearer ${user.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ token: key }),
      });
      expect(done.status).toBe(201);
      const json = fileResponse.parse(await done.json());
      expect(await storedMd5(json.id)).toEqual({ md5: source.md5, size: source.data.length });
    } finally {
      await server.close();
    }
  });
});
