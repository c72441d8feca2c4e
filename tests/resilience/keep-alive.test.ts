import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startApp, type AppServer } from "./app-server";

// Issue 26, part 9: clients and proxies reuse idle connections for up to a minute (nginx and most
// balancers 60 s). With Node's 5 s keep-alive, a request sent as the server closed the idle socket
// met a reset (ECONNRESET in the OAuth2 journey). Over real HTTP to the built server.
let app: AppServer;
let dataDir: string;
afterAll(async () => {
  await app?.kill("SIGTERM");
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** GET on `agent`'s one socket: the status, and whether the socket was one already used. */
function get(agent: http.Agent, url: string): Promise<{ status: number; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => res.resume().on("end", () => resolve({ status: res.statusCode!, reused: req.reusedSocket })));
    req.on("error", reject);
  });
}

async function reuseAfter(idleMs: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const first = await get(agent, `${app.url}/api/publicconfig`);
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    const second = await get(agent, `${app.url}/api/publicconfig`);
    return [first, second];
  } finally {
    agent.destroy();
  }
}

describe("connections kept alive", () => {
  it("serves a connection reused after 6 s and after 60 s idle", async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "coffre-res-keepalive-"));
    app = await startApp({ DATA_DIR: dataDir, DATABASE_URL: process.env.DATABASE_URL ?? "" });
    const [six, sixty] = await Promise.all([reuseAfter(6_000), reuseAfter(60_000)]);
    for (const [first, second] of [six, sixty]) {
      expect(first).toEqual({ status: 200, reused: false });
      expect(second).toEqual({ status: 200, reused: true });
    }
  }, 120_000);
});
