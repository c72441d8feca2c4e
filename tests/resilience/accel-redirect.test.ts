import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, freePort, privateRootOf, signIn, startApp, uploadFile, type AppServer } from "./app-server";

// Issue 12: ACCEL_REDIRECT_PREFIX hands downloads to a real nginx in front of the built server.
// The rights, the tokens and the 304 stay with Coffre; nginx sends the bytes and the ranges.

const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((candidate) => fs.existsSync(candidate));
const PREFIX = "/_coffre_blobs/";

let app: AppServer;
let nginx: ChildProcess;
let dataDir: string;
let nginxDir: string;
let proxyUrl: string;

beforeAll(async () => {
  if (!NGINX) throw new Error("nginx is not installed (apt-get install -y nginx-light; .ci/run installs it)");
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "coffre-res-accel-"));
  nginxDir = fs.mkdtempSync(path.join(os.tmpdir(), "coffre-nginx-"));
  app = await startApp({ DATA_DIR: dataDir, DATABASE_URL: process.env.DATABASE_URL ?? "", ACCEL_REDIRECT_PREFIX: PREFIX, TRUSTED_PROXIES: "127.0.0.1" });
  const port = await freePort();
  proxyUrl = `http://127.0.0.1:${port}`;
  fs.writeFileSync(path.join(nginxDir, "nginx.conf"), nginxConfig(port, app.port, path.join(dataDir, "blobs")));
  nginx = spawn(NGINX, ["-c", path.join(nginxDir, "nginx.conf"), "-p", nginxDir], { stdio: "ignore", detached: true });
  for (let i = 0; i < 100; i++) {
    if ((await fetch(`${proxyUrl}/api/health`).catch(() => null))?.status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
}, 120_000);

afterAll(async () => {
  if (nginx?.pid) process.kill(-nginx.pid, "SIGTERM");
  await app?.kill("SIGTERM");
  for (const dir of [dataDir, nginxDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** The README's "Behind nginx" configuration, with this test's ports and folders. */
function nginxConfig(port: number, appPort: number, blobs: string) {
  const temp = (name: string) => `${name}_temp_path ${path.join(nginxDir, name)};`;
  return `
daemon off;
${process.getuid?.() === 0 ? "user root;" /* the test's folders are private to root; in production, nginx's user reads DATA_DIR/blobs */ : ""}
worker_processes 1;
pid ${path.join(nginxDir, "nginx.pid")};
error_log ${path.join(nginxDir, "error.log")} warn;
events { worker_connections 64; }
http {
  access_log off;
  ${["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(temp).join("\n  ")}
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 0;
    location / {
      proxy_pass http://127.0.0.1:${appPort};
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_request_buffering off;
      proxy_buffering off;
    }
    location ${PREFIX} {
      internal;
      alias ${blobs}/;
      add_header X-Content-Type-Options nosniff always;
      add_header Content-Security-Policy sandbox always;
    }
  }
}`;
}

describe("downloads handed to nginx (ACCEL_REDIRECT_PREFIX)", () => {
  it("sends the whole file and ranges through nginx, with Coffre's type and disposition", async () => {
    const token = await signIn(proxyUrl);
    const content = randomBytes(3 * 1024 * 1024 + 17);
    const uploaded = await uploadFile(proxyUrl, token, await privateRootOf(proxyUrl, token), "report <1>.bin", content);
    expect(uploaded.status).toBe(201);
    const id = uploaded.body.id as number;

    const whole = await fetch(`${proxyUrl}/api/file/${id}/download`, { headers: { authorization: `Bearer ${token}` } });
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-length")).toBe(String(content.length));
    expect(whole.headers.get("content-disposition")).toContain("attachment");
    expect(whole.headers.get("content-disposition")).toContain("report");
    expect(whole.headers.get("x-content-type-options")).toBe("nosniff");
    expect(whole.headers.get("content-security-policy")).toBe("sandbox");
    expect(whole.headers.get("x-accel-redirect")).toBeNull();
    const body = Buffer.from(await whole.arrayBuffer());
    expect(createHash("md5").update(body).digest("hex")).toBe(createHash("md5").update(content).digest("hex"));

    const ranged = await fetch(`${proxyUrl}/api/file/${id}/download`, { headers: { authorization: `Bearer ${token}`, range: "bytes=1000-1999" } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toBe(`bytes 1000-1999/${content.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(content.subarray(1000, 2000))).toBe(true);

    const cached = await fetch(`${proxyUrl}/api/file/${id}/download`, { headers: { authorization: `Bearer ${token}`, "if-none-match": `"${uploaded.body.hash}"` } });
    expect(cached.status).toBe(304);
  });

  it("keeps the rights with Coffre: no token is refused, the internal location cannot be asked for", async () => {
    const token = await signIn(proxyUrl);
    const uploaded = await uploadFile(proxyUrl, token, await privateRootOf(proxyUrl, token), "secret.txt", Buffer.from("not for you"));
    const anonymous = await fetch(`${proxyUrl}/api/file/${uploaded.body.id}/download`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("x-accel-redirect")).toBeNull();

    // Straight at the internal location, even with the blob's exact path: nginx answers 404.
    const handover = await fetch(`${app.url}/api/file/${uploaded.body.id}/download`, { headers: { authorization: `Bearer ${token}` } });
    expect(await handover.text()).toBe("");
    const location = handover.headers.get("x-accel-redirect")!;
    expect(location).toMatch(new RegExp(`^${PREFIX}[0-9a-f]{2}/[0-9a-f]{2}/[0-9a-f-]{36}$`));
    expect((await fetch(`${proxyUrl}${location}`)).status).toBe(404);
  });

  it("serves a download token (no session) through nginx", async () => {
    const token = await signIn(proxyUrl);
    const content = Buffer.from("through a token");
    const uploaded = await uploadFile(proxyUrl, token, await privateRootOf(proxyUrl, token), "token.txt", content);
    const issued = await api(proxyUrl, token, "POST", `/token/file/${uploaded.body.id}/download`);
    const res = await fetch(`${proxyUrl}/api/file/download?token=${encodeURIComponent(issued.body.token)}`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(content)).toBe(true);

    // The type Coffre decided (from the bytes) reaches the client, not nginx's guess from the blob's name.
    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: "#0a0" } }).png().toBuffer();
    const image = await uploadFile(proxyUrl, token, await privateRootOf(proxyUrl, token), "picture.data", png);
    const served = await fetch(`${proxyUrl}/api/file/${image.body.id}/download`, { headers: { authorization: `Bearer ${token}` } });
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    expect(app.output()).not.toMatch(/uncaughtException|unhandledRejection/);
  });
});

describe("ACCEL_REDIRECT_PREFIX validation", () => {
  it("refuses to start with a prefix that is not a path ending in /", () => {
    const run = spawnSync(process.execPath, [path.resolve(import.meta.dirname, "../../.next/coffre-server.mjs")], {
      env: { ...process.env, ACCEL_REDIRECT_PREFIX: "blobs", PORT: "0", DATA_DIR: dataDir },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain("ACCEL_REDIRECT_PREFIX must be a path");
  });
});
