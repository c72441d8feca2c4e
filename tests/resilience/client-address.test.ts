import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { api, signIn, startApp, type AppServer } from "./app-server";

// Issue 11, finding 8 (api.md, "Client address"): X-Forwarded-For counts only from TRUSTED_PROXIES,
// over real HTTP to the built server, since only the server in front of Next sees the socket.

const started: { app: AppServer; dataDir: string }[] = [];
afterAll(async () => {
  for (const { app, dataDir } of started) {
    await app.kill("SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

async function start(env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "coffre-res-addr-"));
  const app = await startApp({ DATA_DIR: dataDir, DATABASE_URL: process.env.DATABASE_URL ?? "", ...env });
  started.push({ app, dataDir });
  return app;
}

const wrongPassword = (url: string, login: string, forwardedFor: string) =>
  fetch(`${url}/api/auth`, { method: "POST", headers: { "Content-Type": "application/json", "X-Forwarded-For": forwardedFor }, body: JSON.stringify({ user: login, password: "wrong-password" }) });

async function latestFailedSignIn(url: string, token: string, login: string) {
  const logs = await api<{ objects: { ip: string; message: string; type: string }[] }>(url, token, "GET", "/logs?type=ADMLLOG_LOGIN_FAILED&nb_objects=100");
  return logs.body.objects.find((entry) => entry.message.includes(login));
}

describe("client addresses without TRUSTED_PROXIES", () => {
  it("throttles wrong passwords sent under rotating forged X-Forwarded-For, and logs the socket's address", async () => {
    const app = await start();
    const login = `victim${Date.now()}`;
    const statuses: number[] = [];
    for (let i = 1; i <= 8; i++) statuses.push((await wrongPassword(app.url, login, `198.51.100.${i}`)).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
    const token = await signIn(app.url);
    const entry = await latestFailedSignIn(app.url, token, login);
    expect(entry?.ip).toBe("127.0.0.1");
    expect(app.output()).not.toMatch(/uncaughtException|unhandledRejection/);
  });
});

describe("client addresses behind a trusted proxy", () => {
  it("takes the right-most untrusted X-Forwarded-For entry when the peer is a trusted proxy", async () => {
    const app = await start({ TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8" });
    const login = `victim${Date.now()}`;
    // Each address is a client of its own behind the proxy: none reaches the per-address limit.
    const statuses: number[] = [];
    for (let i = 1; i <= 8; i++) statuses.push((await wrongPassword(app.url, login, `198.51.100.${i}, 10.1.1.1`)).status);
    expect(statuses).toEqual(Array(8).fill(401));
    const token = await signIn(app.url);
    const entry = await latestFailedSignIn(app.url, token, login);
    expect(entry?.ip).toBe("198.51.100.8");
  });
});
