import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, type AppServer, folderFiles, makeFolder, privateRootOf, serverCrashes, signIn, startApp, uploadFile } from "./app-server";

// A full disk: the data folder is a small tmpfs. An upload that does not fit answers 507, and
// what was stored before stays whole. Mounting needs root (CI runs as root).

const isRoot = process.getuid?.() === 0;
const mount = fs.mkdtempSync(path.join(os.tmpdir(), "coffre-res-disk-"));
let app: AppServer;

beforeAll(async () => {
  if (!isRoot) return;
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=24m", "tmpfs", mount]);
  // Blobs on the small disk; the database elsewhere (PostgreSQL, or PGlite when none is given).
  app = await startApp({ DATA_DIR: mount, DATABASE_URL: process.env.DATABASE_URL ?? "" });
}, 120_000);

afterAll(async () => {
  await app?.kill("SIGTERM");
  if (isRoot) execFileSync("umount", ["-l", mount]);
  fs.rmSync(mount, { recursive: true, force: true });
});

describe.runIf(isRoot)("full disk", () => {
  it("answers 507 and loses nothing already stored", async () => {
    const token = await signIn(app.url);
    const folder = await makeFolder(app.url, token, await privateRootOf(app.url, token), `disk-${Date.now()}`);
    const kept = randomBytes(2 << 20);
    const first = await uploadFile(app.url, token, folder, "kept.bin", kept);
    expect(first.status).toBe(201);

    const tooBig = await uploadFile(app.url, token, folder, "too-big.bin", randomBytes(40 << 20));
    expect(tooBig.status).toBe(507);
    expect(tooBig.body.code).toBe("insufficient_storage");

    const files = await folderFiles(app.url, token, folder);
    expect(files.map((f) => f.name)).toEqual(["kept.bin"]);
    const download = await fetch(`${app.url}/api/file/${first.body.id}/download`, { headers: { authorization: `Bearer ${token}` } });
    expect(createHash("md5").update(Buffer.from(await download.arrayBuffer())).digest("hex")).toBe(createHash("md5").update(kept).digest("hex"));
    // The failed upload left no partial blob behind, so the disk has room again.
    const again = await uploadFile(app.url, token, folder, "after.bin", randomBytes(1 << 20));
    expect(again.status).toBe(201);
    expect((await api(app.url, token, "GET", `/health`)).status).toBe(200);
  }, 120_000);
});

// The bar for every resilience run: the process never crashed, whatever was done to it.
it("logged no uncaughtException, unhandledRejection or ERR_INVALID_STATE", () => {
  expect(serverCrashes()).toEqual([]);
});
