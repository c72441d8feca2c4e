import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, freePort, serverCrashes, signIn, startApp } from "./app-server";
import { privatePostgres } from "./private-postgres";

// The database goes away under load: requests fail with 503 (the contract's error body), and
// once it is back the same server process answers again, without a restart.

let pg: ReturnType<typeof privatePostgres>;
let app: AppServer;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "coffre-res-db-"));

beforeAll(async () => {
  pg = privatePostgres(await freePort());
  pg.start();
  app = await startApp({ DATA_DIR: dataDir, DATABASE_URL: pg.url });
}, 120_000);

afterAll(async () => {
  await app?.kill("SIGTERM");
  pg?.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("database restarted under load", () => {
  it("answers 503 while the database is down and recovers by itself", async () => {
    const token = await signIn(app.url);
    const get = async () => {
      const res = await fetch(`${app.url}/api/account`, { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, type: res.headers.get("content-type"), body: await res.text() };
    };
    const statuses: number[] = [];
    let running = true;
    const load = (async () => {
      while (running) {
        const r = await get().catch(() => ({ status: 0, type: null, body: "" }));
        statuses.push(r.status);
        if (r.status >= 500) {
          expect(r.status).toBe(503);
          expect(r.type).toMatch(/application\/json/);
          expect(JSON.parse(r.body).code).toBe("service_unavailable");
        }
        await new Promise((res) => setTimeout(res, 20));
      }
    })();

    await new Promise((r) => setTimeout(r, 500));
    pg.stop();
    await new Promise((r) => setTimeout(r, 2000));
    const during = await get();
    expect(during.status).toBe(503);
    pg.start();

    let recovered = false;
    for (let i = 0; i < 100 && !recovered; i++) {
      recovered = (await get()).status === 200;
      if (!recovered) await new Promise((r) => setTimeout(r, 200));
    }
    running = false;
    await load;
    expect(recovered).toBe(true);
    expect(statuses).toContain(200);
    expect(statuses).toContain(503);
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
  }, 120_000);
});

// The bar for every resilience run: the process never crashed, whatever was done to it.
it("logged no uncaughtException, unhandledRejection or ERR_INVALID_STATE", () => {
  expect(serverCrashes()).toEqual([]);
});
