import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, type AppServer, folderFiles, makeFolder, privateRootOf, serverCrashes, signIn, startApp, uploadFile } from "./app-server";

let app: AppServer;
let token: string;
let root: number;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "coffre-res-conc-"));

beforeAll(async () => {
  app = await startApp({ DATA_DIR: dataDir, DATABASE_URL: process.env.DATABASE_URL ?? "" });
  token = await signIn(app.url);
  root = await privateRootOf(app.url, token);
}, 120_000);

afterAll(async () => {
  await app?.kill("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("concurrent uploads", () => {
  it("50 concurrent uploads of one name into one folder end as 50 ordered versions, without error", async () => {
    const folder = await makeFolder(app.url, token, root, `same-name-${Date.now()}`);
    const contents = Array.from({ length: 50 }, (_, i) => Buffer.from(`version content ${i} ${randomBytes(8).toString("hex")}`));
    const results = await Promise.all(contents.map((c) => uploadFile(app.url, token, folder, "report.txt", c)));
    expect(results.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);

    const files = await folderFiles(app.url, token, folder);
    expect(files).toHaveLength(1);
    const versions = await api(app.url, token, "GET", `/file/${files[0].id}/versions`);
    expect(versions.status).toBe(200);
    expect(versions.body).toHaveLength(50);
    // Newest first, each upload's bytes present exactly once.
    const ids = versions.body.map((v: { id: number }) => v.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const hashes = new Set(versions.body.map((v: { hash: string }) => v.hash));
    expect(hashes).toEqual(new Set(contents.map((c) => createHash("md5").update(c).digest("hex"))));
  }, 120_000);

  it("20 concurrent uploads racing for the last bytes of a quota never exceed it", async () => {
    const folder = await makeFolder(app.url, token, root, `quota-race-${Date.now()}`);
    const QUOTA = 100_000;
    const SIZE = 30_000;
    const set = await api(app.url, token, "PUT", `/folder/${folder}`, { quota: QUOTA });
    expect(set.status).toBe(200);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => uploadFile(app.url, token, folder, `part-${i}.bin`, randomBytes(SIZE))));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(Math.floor(QUOTA / SIZE));
    expect(statuses.filter((s) => s !== 201 && s !== 507)).toEqual([]);

    const quotas = await api(app.url, token, "GET", `/quotas?folder_id=${folder}`);
    expect(quotas.body.folder.used).toBeLessThanOrEqual(QUOTA);
    expect(quotas.body.folder.used).toBe(Math.floor(QUOTA / SIZE) * SIZE);
    expect(await folderFiles(app.url, token, folder)).toHaveLength(Math.floor(QUOTA / SIZE));
  }, 120_000);
});

// The bar for every resilience run: the process never crashed, whatever was done to it.
it("logged no uncaughtException, unhandledRejection or ERR_INVALID_STATE", () => {
  expect(serverCrashes()).toEqual([]);
});
