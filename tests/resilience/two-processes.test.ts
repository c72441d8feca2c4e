import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import * as tus from "tus-js-client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { s3Env, startS3rver, type S3rverHandle } from "../helpers/s3rver";
import { api, type AppServer, folderFiles, freePort, makeFolder, privateRootOf, serverCrashes, signIn, startApp } from "./app-server";
import { multipartFrame, streamRequest } from "./streaming-client";

// Several processes (issue 18): two real `npm start` servers on ONE PostgreSQL database and ONE
// s3rver bucket, their upload work files in one shared folder (UPLOAD_WORK_DIR), behind a small
// reverse proxy of this test that sends each request to the process the test names (or to each
// in turn). Uploads begun on one process finish on the other, one killed mid-transfer loses
// nothing, and locks, quotas, sessions and jobs hold across both.

const MiB = 1 << 20;
const block = randomBytes(MiB);
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "coffre-res-two-work-"));
const dataDirs = { a: fs.mkdtempSync(path.join(os.tmpdir(), "coffre-res-two-a-")), b: fs.mkdtempSync(path.join(os.tmpdir(), "coffre-res-two-b-")) };
type Name = "a" | "b";

let s3: S3rverHandle;
const apps: Record<Name, AppServer | undefined> = { a: undefined, b: undefined };
const ports: Record<Name, number> = { a: 0, b: 0 };
let proxy: Proxy;
let token: string;
let root: number;

const envOf = (name: Name) => ({
  DATA_DIR: dataDirs[name],
  DATABASE_URL: process.env.DATABASE_URL ?? "",
  ...s3Env(s3.endpoint, s3.bucket),
  UPLOAD_WORK_DIR: workDir,
  JOBS_FIRST_TICK_MS: "1000",
});

async function start(name: Name) {
  apps[name] = await startApp(envOf(name), ports[name]);
}

const app = (name: Name) => apps[name]!;

const dying: Partial<Record<Name, Promise<void>>> = {};
/** SIGKILL, at once, from inside a transfer's progress callback. */
function killNow(name: Name) {
  dying[name] = app(name).kill("SIGKILL");
}

type Proxy = { url: string; target: Name | "round-robin"; served: { method: string; path: string; by: Name }[]; close(): Promise<void> };

/** A reverse proxy in front of both processes: `target` picks who serves the next requests. */
async function startProxy(): Promise<Proxy> {
  let turn = 0;
  const state: Proxy = { url: "", target: "round-robin", served: [], close: async () => {} };
  const server = http.createServer((req, res) => {
    const by: Name = state.target === "round-robin" ? (turn++ % 2 === 0 ? "a" : "b") : state.target;
    state.served.push({ method: req.method!, path: req.url!, by });
    const upstream = http.request({ host: "127.0.0.1", port: ports[by], method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
      answer.on("error", () => res.destroy());
    });
    // A process that dies mid-request: the client sees its connection cut, as behind nginx.
    upstream.on("error", () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    req.pipe(upstream);
    req.on("error", () => upstream.destroy());
    res.on("close", () => !res.writableFinished && upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  state.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

const md5Of = (bytes: Buffer) => createHash("md5").update(bytes).digest("hex");

/** `size` bytes of the block repeated, as the streaming helper sends them. */
const content = (size: number) => Buffer.concat(Array.from({ length: Math.ceil(size / MiB) }, () => block)).subarray(0, size);

async function usedBytes(folder: number, on: Name) {
  const res = await api(app(on).url, token, "GET", `/quotas?folder_id=${folder}`);
  expect(res.status).toBe(200);
  return { user: res.body.user.used as number, platform: res.body.platform.used as number };
}

async function download(on: Name, fileId: number, bearer = token): Promise<Buffer> {
  const res = await fetch(`${app(on).url}/api/file/${fileId}/download`, { headers: { authorization: `Bearer ${bearer}` } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

beforeAll(async () => {
  s3 = await startS3rver("two-processes");
  ports.a = await freePort();
  ports.b = await freePort();
  // One after the other: the first start migrates the database and creates the administrator.
  await start("a");
  await start("b");
  proxy = await startProxy();
  token = await signIn(proxy.url);
  root = await privateRootOf(proxy.url, token);
}, 180_000);

afterAll(async () => {
  await proxy?.close();
  await Promise.all([apps.a?.kill("SIGTERM"), apps.b?.kill("SIGTERM")]);
  await s3?.stop();
  for (const dir of [workDir, dataDirs.a, dataDirs.b]) fs.rmSync(dir, { recursive: true, force: true });
});

/** A process a test killed comes back (on its port) before the next test, whatever that test's outcome. */
beforeEach(async () => {
  for (const name of ["a", "b"] as const) {
    await dying[name];
    const proc = apps[name]?.proc;
    if (proc && (proc.exitCode !== null || proc.signalCode !== null)) await start(name);
  }
}, 120_000);

describe("two processes on one database and one bucket", () => {
  it("both report the database and the store healthy; a session opened on one works on the other", async () => {
    for (const name of ["a", "b"] as const) {
      const res = await fetch(`${app(name).url}/api/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "ok", db: "ok", storage: "ok" });
    }
    proxy.target = "a";
    const onA = await signIn(proxy.url);
    proxy.target = "b";
    expect((await api(proxy.url, onA, "GET", "/account")).status).toBe(200);
    // Signed out on B, the session is gone on A too.
    expect((await api(proxy.url, onA, "DELETE", "/auth")).status).toBeLessThan(300);
    proxy.target = "a";
    expect((await api(proxy.url, onA, "GET", "/account")).status).toBe(401);
  });

  it("a lock taken on A refuses a write on B; a quota reached on A refuses an upload on B", async () => {
    proxy.target = "a";
    const login = `bob${Date.now()}`;
    const created = await api(proxy.url, token, "POST", "/user", { login, password: "Bob-Passw0rd-2026!", firstname: "Bob", lastname: "Two", email: `${login}@example.com`, role: 2, quota: 3000 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const bob = Number(created.body.id);
    // A shared space (top level, administrators only) where Bob may write.
    const team = await makeFolder(proxy.url, token, 0, `team-${Date.now()}`);
    const right = await api(proxy.url, token, "POST", "/right", { folder_id: team, target_id: bob, browse: true, read: true, download: true, write: true, edit: true, delete: true });
    expect(right.status, JSON.stringify(right.body)).toBe(201);
    proxy.target = "b";
    const bobToken = await signIn(proxy.url, login, "Bob-Passw0rd-2026!");
    const shared = await fetch(`${proxy.url}/api/file/upload`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form(team, "shared.txt", Buffer.from("version one")) });
    expect(shared.status).toBe(201);
    const file = ((await shared.json()) as { id: number }).id;

    proxy.target = "a";
    expect((await api(proxy.url, token, "PUT", `/lock/${file}`)).status).toBe(200);
    proxy.target = "b";
    const replace = await fetch(`${proxy.url}/api/file/${file}/upload`, { method: "PUT", headers: { authorization: `Bearer ${bobToken}`, "content-type": "application/octet-stream" }, body: "version two" });
    expect(replace.status).toBe(423);
    expect((await api(proxy.url, bobToken, "PUT", `/file/${file}`, { name: "renamed.txt" })).status).toBe(423);
    proxy.target = "a";
    expect((await api(proxy.url, token, "DELETE", `/lock/${file}`)).status).toBe(204);
    proxy.target = "b";
    expect((await api(proxy.url, bobToken, "PUT", `/file/${file}`, { name: "renamed.txt" })).status).toBe(200);

    // Bob's 3000 bytes: 2000 taken through A, 2000 more refused by B.
    const bobRoot = await privateRootOf(app("a").url, bobToken);
    proxy.target = "a";
    const first = await fetch(`${proxy.url}/api/file/upload`, { method: "POST", headers: { authorization: `Bearer ${bobToken}` }, body: form(bobRoot, "first.bin", content(2000)) });
    expect(first.status, await first.clone().text()).toBe(201);
    proxy.target = "b";
    const second = await fetch(`${proxy.url}/api/file/upload`, { method: "POST", headers: { authorization: `Bearer ${bobToken}` }, body: form(bobRoot, "second.bin", content(2000)) });
    expect(second.status, await second.clone().text()).toBe(507);
    expect((await folderFiles(app("a").url, bobToken, bobRoot)).map((f) => f.name)).toEqual(["first.bin"]);
  });

  it("a chunked upload sends its chunks to A and B in turn and completes, byte-identical", async () => {
    const folder = await makeFolder(proxy.url, token, root, `chunked-${Date.now()}`);
    const chunkSize = 2 * MiB;
    const chunks = 4;
    const bytes = content(chunks * chunkSize);
    for (let i = 0; i < chunks; i++) {
      proxy.target = i % 2 === 0 ? "a" : "b";
      const res = await fetch(`${proxy.url}/api/file/upload`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: form(folder, "alternate.bin", bytes.subarray(i * chunkSize, (i + 1) * chunkSize), { chunk: String(i), chunks: String(chunks), chunksSize: String(chunkSize), fileSize: String(bytes.length) }),
      });
      const text = await res.text();
      // Each chunk is filed (200); the last one creates the file (201).
      expect(res.status, text).toBe(i === chunks - 1 ? 201 : 200);
    }
    const uploads = proxy.served.filter((r) => r.path === "/api/file/upload").slice(-chunks);
    expect(uploads.map((r) => r.by)).toEqual(["a", "b", "a", "b"]);
    const [listed] = await folderFiles(app("a").url, token, folder);
    expect(listed).toMatchObject({ name: "alternate.bin", size: bytes.length, hash: md5Of(bytes) });
    expect(md5Of(await download("b", listed.id))).toBe(md5Of(bytes));
  });

  it("tus (tus-js-client): begun on A, A killed mid-transfer, resumed and finished on B, byte-identical", async () => {
    const folder = await makeFolder(proxy.url, token, root, `tus-${Date.now()}`);
    const before = await usedBytes(folder, "b");
    const size = 48 * MiB;
    const bytes = content(size);
    proxy.target = "a";
    const open = await api(proxy.url, token, "POST", "/file/tus", { name: "moved.bin", target: folder, size });
    expect([200, 201]).toContain(open.status);
    const sessionKey = open.body[0].sessionKey as string;
    let killed = false;
    const url = await new Promise<string>((resolve, reject) => {
      const upload = new tus.Upload(bytes, {
        endpoint: `${proxy.url}/api/tus`,
        headers: { authorization: `Bearer ${token}` },
        metadata: { token: sessionKey, filename: "moved.bin" },
        retryDelays: [100, 300, 1000, 2000, 4000],
        onProgress: (sent) => {
          if (!killed && sent >= 16 * MiB) {
            killed = true;
            // From now on the proxy sends everything to B; A dies under the PATCH it is serving.
            proxy.target = "b";
            killNow("a");
          }
        },
        onSuccess: () => resolve(upload.url!),
        onError: reject,
      });
      upload.start();
    });
    expect(killed).toBe(true);
    const served = proxy.served.filter((r) => r.path.startsWith("/api/tus"));
    expect(served.find((r) => r.method === "PATCH")?.by).toBe("a");
    expect(served.some((r) => r.method === "PATCH" && r.by === "b")).toBe(true);
    // B took over at the offset A had reached: not from the start.
    const resumedAt = served.findIndex((r) => r.by === "b");
    expect(served.slice(resumedAt).some((r) => r.method === "HEAD")).toBe(true);
    expect(url).toContain("/api/tus/");

    const done = await api(proxy.url, token, "POST", "/file/tus", { token: sessionKey });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.body.hash).toBe(md5Of(bytes));
    expect(md5Of(await download("b", done.body.id))).toBe(md5Of(bytes));
    expect((await usedBytes(folder, "b")).user).toBe(before.user + size);
  }, 240_000);

  it("chunked: A killed in the middle of a chunk, the chunk sent again to B, the upload completes", async () => {
    const folder = await makeFolder(proxy.url, token, root, `chunked-kill-${Date.now()}`);
    const chunkSize = 8 * MiB;
    const chunks = 3;
    const fields = (i: number) => ({ folderId: String(folder), chunk: String(i), chunks: String(chunks), chunksSize: String(chunkSize), fileSize: String(chunks * chunkSize) });
    const send = (i: number, on: Name, onProgress?: (sent: number) => void) => {
      const frame = multipartFrame(fields(i), "survivor.bin");
      return streamRequest({ url: app(on).url, method: "POST", path: "/api/file/upload", headers: { authorization: `Bearer ${token}`, "content-type": frame.contentType }, head: frame.head, tail: frame.tail, totalBytes: chunkSize, block, onProgress });
    };
    expect((await send(0, "a")).status).toBe(200);
    let killed = false;
    const cut = await send(1, "a", (sent) => {
      if (!killed && sent >= 3 * MiB) {
        killed = true;
        killNow("a");
      }
    });
    expect(cut.status).toBeUndefined();
    expect(await folderFiles(app("b").url, token, folder)).toEqual([]);
    expect((await send(1, "b")).status).toBe(200);
    const last = await send(2, "b");
    expect(last.status, last.body).toBe(201);
    const [listed] = await folderFiles(app("b").url, token, folder);
    expect(listed).toMatchObject({ name: "survivor.bin", size: chunks * chunkSize, hash: md5Of(content(chunks * chunkSize)) });
  }, 240_000);

  it("a plain upload cut by B's death is abandoned: no file, no quota used, and A serves on", async () => {
    const folder = await makeFolder(app("a").url, token, root, `cut-${Date.now()}`);
    const before = await usedBytes(folder, "a");
    const frame = multipartFrame({ folderId: String(folder) }, "cut.bin");
    let killed = false;
    const cut = await streamRequest({
      url: app("b").url, method: "POST", path: "/api/file/upload",
      headers: { authorization: `Bearer ${token}`, "content-type": frame.contentType },
      head: frame.head, tail: frame.tail, totalBytes: 32 * MiB, block,
      onProgress: (sent) => {
        if (!killed && sent >= 12 * MiB) {
          killed = true;
          killNow("b");
        }
      },
    });
    expect(cut.status).toBeUndefined();
    expect(await folderFiles(app("a").url, token, folder)).toEqual([]);
    expect(await usedBytes(folder, "a")).toEqual(before);
  }, 240_000);

  it("jobs run once: each queued job is claimed by one process only", async () => {
    const sql = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    try {
      const ids = (await sql`INSERT INTO jobs (kind, payload) SELECT 'blobs.collect', jsonb_build_object('n', n) FROM generate_series(1, 30) n RETURNING id`).map((r) => Number(r.id));
      const deadline = Date.now() + 60_000;
      let found: { status: string; attempts: number }[] = [];
      while (Date.now() < deadline) {
        found = await sql<{ status: string; attempts: number }[]>`SELECT status, attempts FROM jobs WHERE id IN ${sql(ids)}`;
        if (found.every((j) => j.status === "done")) break;
        await new Promise((r) => setTimeout(r, 500));
      }
      expect(found).toHaveLength(30);
      expect(found.every((j) => j.status === "done" && j.attempts === 1)).toBe(true);
    } finally {
      await sql.end();
    }
  }, 90_000);

  it("health reports the store down on both when the bucket is unreachable", async () => {
    await s3.stop();
    for (const name of ["a", "b"] as const) {
      const res = await fetch(`${app(name).url}/api/health`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: "degraded", db: "ok", storage: "down" });
    }
  }, 30_000);
});

/** A one-file multipart body with the contract's fields. */
function form(folderId: number, name: string, bytes: Uint8Array, extra: Record<string, string> = {}) {
  const body = new FormData();
  body.set("folderId", String(folderId));
  for (const [k, v] of Object.entries(extra)) body.set(k, v);
  body.set("targetFile", new Blob([bytes as Uint8Array<ArrayBuffer>]), name);
  return body;
}

// The bar for every resilience run: the processes never crashed, whatever was done to them.
it("logged no uncaughtException, unhandledRejection or ERR_INVALID_STATE", () => {
  expect(serverCrashes()).toEqual([]);
});
