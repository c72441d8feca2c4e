import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, type AppServer, folderFiles, makeFolder, privateRootOf, serverCrashes, signIn, startApp } from "./app-server";
import { multipartFrame, streamRequest } from "./streaming-client";

// The server is killed with SIGKILL in the middle of each kind of upload, then restarted on the
// same data: nothing partial is visible, quotas are unchanged, work files are collected, and a
// tus upload resumes to a byte-identical file.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "coffre-res-kill-"));
const MiB = 1 << 20;
const block = randomBytes(MiB);
// Work files older than ~2 s count as abandoned, so the collector runs within the test.
const env = { DATA_DIR: dataDir, DATABASE_URL: process.env.DATABASE_URL ?? "", UPLOAD_EXPIRY_HOURS: "0.0005", JOBS_FIRST_TICK_MS: "1000" };
let app: AppServer;
let token: string;
let root: number;

beforeAll(async () => {
  app = await startApp(env);
  token = await signIn(app.url);
  root = await privateRootOf(app.url, token);
}, 120_000);

afterAll(async () => {
  await app?.kill("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function usedBytes(folder: number) {
  const res = await api(app.url, token, "GET", `/quotas?folder_id=${folder}`);
  expect(res.status).toBe(200);
  return { user: res.body.user.used as number, platform: res.body.platform.used as number };
}

/** Kills the server once `bytes` of the body went out, then restarts it on the same data. */
async function killWhenSent(sent: number, bytes: number, state: { killed: boolean }) {
  if (!state.killed && sent >= bytes) {
    state.killed = true;
    await app.kill("SIGKILL");
  }
}

async function restart(overrides: Record<string, string> = {}) {
  app = await startApp({ ...env, ...overrides }, app.port);
  token = await signIn(app.url);
}

/** Files under the work area other than the tus store of a live session. */
function workFiles(except: string[] = []): string[] {
  const tmp = path.join(dataDir, "blobs", "tmp");
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (!except.some((x) => p.includes(x))) found.push(p);
    }
  };
  walk(tmp);
  return found;
}

async function eventually(check: () => boolean, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 500));
  }
  return true;
}

describe("SIGKILL in the middle of an upload", () => {
  it("multipart: no partial file, quota unchanged, work files collected", async () => {
    const folder = await makeFolder(app.url, token, root, `kill-multipart-${Date.now()}`);
    const before = await usedBytes(folder);
    const frame = multipartFrame({ folderId: String(folder) }, "big.bin");
    const state = { killed: false };
    const result = await streamRequest({
      url: app.url, method: "POST", path: "/api/file/upload",
      headers: { authorization: `Bearer ${token}`, "content-type": frame.contentType },
      head: frame.head, tail: frame.tail, totalBytes: 64 * MiB, block,
      onProgress: (sent) => void killWhenSent(sent, 24 * MiB, state),
    });
    expect(result.status).toBeUndefined();
    await restart();
    expect(await folderFiles(app.url, token, folder)).toEqual([]);
    expect(await usedBytes(folder)).toEqual(before);
    expect(await eventually(() => workFiles().length === 0), `left: ${workFiles().join(", ")}`).toBe(true);
  }, 180_000);

  it("chunked: no partial file, quota unchanged, work files collected", async () => {
    const folder = await makeFolder(app.url, token, root, `kill-chunked-${Date.now()}`);
    const before = await usedBytes(folder);
    const chunkSize = 8 * MiB;
    const chunks = 6;
    const fields = (i: number) => ({ folderId: String(folder), chunk: String(i), chunks: String(chunks), chunksSize: String(chunkSize), fileSize: String(chunks * chunkSize) });
    for (const i of [0, 1]) {
      const frame = multipartFrame(fields(i), "chunked.bin");
      const ok = await streamRequest({ url: app.url, method: "POST", path: "/api/file/upload", headers: { authorization: `Bearer ${token}`, "content-type": frame.contentType }, head: frame.head, tail: frame.tail, totalBytes: chunkSize, block });
      expect(ok.status, ok.body).toBe(200);
    }
    const frame = multipartFrame(fields(2), "chunked.bin");
    const state = { killed: false };
    const cut = await streamRequest({
      url: app.url, method: "POST", path: "/api/file/upload",
      headers: { authorization: `Bearer ${token}`, "content-type": frame.contentType },
      head: frame.head, tail: frame.tail, totalBytes: chunkSize, block,
      onProgress: (sent) => void killWhenSent(sent, 3 * MiB, state),
    });
    expect(cut.status).toBeUndefined();
    await restart();
    expect(await folderFiles(app.url, token, folder)).toEqual([]);
    expect(await usedBytes(folder)).toEqual(before);
    expect(await eventually(() => workFiles().length === 0), `left: ${workFiles().join(", ")}`).toBe(true);
  }, 180_000);

  it("tus: the upload resumes after the restart to a byte-identical file", async () => {
    const folder = await makeFolder(app.url, token, root, `kill-tus-${Date.now()}`);
    const before = await usedBytes(folder);
    const size = 48 * MiB;
    const open = await api(app.url, token, "POST", "/file/tus", { name: "resumed.bin", target: folder, size });
    expect([200, 201]).toContain(open.status);
    const sessionKey = open.body[0].sessionKey as string;
    const create = await fetch(`${app.url}/api/tus`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "tus-resumable": "1.0.0", "upload-length": String(size), "upload-metadata": `token ${Buffer.from(sessionKey).toString("base64")},filename ${Buffer.from("resumed.bin").toString("base64")}` },
    });
    expect(create.status).toBe(201);
    const location = new URL(create.headers.get("location")!, `${app.url}/api/tus/`).pathname;

    const state = { killed: false };
    const cut = await streamRequest({
      url: app.url, method: "PATCH", path: location,
      headers: { authorization: `Bearer ${token}`, "tus-resumable": "1.0.0", "upload-offset": "0", "content-type": "application/offset+octet-stream" },
      totalBytes: size, block,
      onProgress: (sent) => void killWhenSent(sent, 20 * MiB, state),
    });
    expect(cut.status).toBeUndefined();
    // A normal expiry here: the collector must not take the session we are about to resume.
    await restart({ UPLOAD_EXPIRY_HOURS: "24" });
    expect(await folderFiles(app.url, token, folder)).toEqual([]);
    expect(await usedBytes(folder)).toEqual(before);

    const head = await fetch(`${app.url}${location}`, { method: "HEAD", headers: { authorization: `Bearer ${token}`, "tus-resumable": "1.0.0" } });
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get("upload-offset"));
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(size);
    // The content is the block repeated, so the rest starts at offset modulo the block size.
    const rest = Buffer.concat(Array.from({ length: Math.ceil((size - offset) / MiB) + 1 }, () => block)).subarray(offset % MiB, offset % MiB + (size - offset));
    const patch = await fetch(`${app.url}${location}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "tus-resumable": "1.0.0", "upload-offset": String(offset), "content-type": "application/offset+octet-stream" },
      body: rest,
    });
    expect(patch.status).toBe(204);
    const done = await api(app.url, token, "POST", "/file/tus", { token: sessionKey });
    expect(done.status, JSON.stringify(done.body)).toBe(201);

    const expected = createHash("md5");
    for (let i = 0; i < size / MiB; i++) expected.update(block);
    const md5 = expected.digest("hex");
    expect(done.body.hash).toBe(md5);
    const download = await fetch(`${app.url}/api/file/${done.body.id}/download`, { headers: { authorization: `Bearer ${token}` } });
    expect(download.status).toBe(200);
    expect(createHash("md5").update(Buffer.from(await download.arrayBuffer())).digest("hex")).toBe(md5);
    expect((await usedBytes(folder)).user).toBe(before.user + size);
  }, 240_000);
});

// The bar for every resilience run: the process never crashed, whatever was done to it.
it("logged no uncaughtException, unhandledRejection or ERR_INVALID_STATE", () => {
  expect(serverCrashes()).toEqual([]);
});
