// What the vitest suite cannot see, checked against the BUILT app on `next start`: that Next routes
// the download paths to the pages/api handlers (ahead of app/api/[...path] and
// app/api/file/[fileId]) and keeps their Content-Length (App Router drops it: environment.md,
// trap 4), gzip included; that the three upload paths work through Next's own body handling.
// With THROUGHPUT_MIB set, it also times a download and a multipart upload of that size beside a
// bare node:http server on the same disk, and samples the server's resident memory.
//
// Part of the e2e/bench stage, after `npm run build`; it builds nothing and fails without a build:
//   node tests/api/downloads/built-server-check.mjs            (checks only)
//   THROUGHPUT_MIB=1024 node tests/api/downloads/built-server-check.mjs
// Env: PORT (default a free one in 3300-3399), DATABASE_URL (default: embedded PGlite in a temp DATA_DIR).
import { spawn, execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { once } from "node:events";
import { createReadStream, createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import assert from "node:assert/strict";

const root = path.resolve(import.meta.dirname, "../../..");
if (!existsSync(path.join(root, ".next", "BUILD_ID"))) {
  console.error("built-server-check: no build in .next (run `npm run build` first)");
  process.exit(1);
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), "coffre-check-"));
const port = Number(process.env.PORT) || (await freePort(3300, 3399));
const base = `http://127.0.0.1:${port}`;
const admin = { user: "checkadmin", password: `Ch3ck-${randomBytes(6).toString("hex")}` };
const results = [];
/** Id of the File the last multipart upload returned. */
let lastUploaded;
const check = async (name, fn) => {
  try {
    await fn();
    results.push(["ok", name]);
  } catch (error) {
    results.push(["FAIL", name, error.message]);
  }
};

const server = spawn(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
  cwd: root,
  env: { ...process.env, DATA_DIR: dataDir, ADMIN_LOGIN: admin.user, ADMIN_PASSWORD: admin.password, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
  stdio: ["ignore", "pipe", "pipe"],
});
let serverLog = "";
server.stdout.on("data", (d) => (serverLog += d));
server.stderr.on("data", (d) => (serverLog += d));

try {
  await waitForHealth();
  const token = (await json("POST", "/api/auth", { body: admin })).token;
  const auth = { Authorization: `Bearer ${token}` };

  // A compressible type and a non-ASCII name: gzip must not take Content-Length or ranges away.
  const text = Buffer.from("Coffre ".repeat(20_000));
  const name = "Résumé été.txt";
  const form = new FormData();
  form.append("targetFile", new Blob([text], { type: "text/plain" }), name);
  const uploaded = await fetch(`${base}/api/file/upload`, { method: "POST", headers: auth, body: form });
  assert.equal(uploaded.status, 201, await uploaded.clone().text());
  const file = await uploaded.json();

  await check("GET /api/file/(id)/download keeps Content-Length under Accept-Encoding: gzip", async () => {
    const res = await raw("GET", `/api/file/${file.id}/download`, { ...auth, "Accept-Encoding": "gzip, br" });
    assert.equal(res.status, 200);
    assert.equal(res.headers["content-length"], String(text.length));
    assert.equal(res.headers["content-encoding"], undefined);
    assert.equal(res.headers["etag"], `"${file.hash}"`);
    assert.equal(res.headers["accept-ranges"], "bytes");
    assert.equal(res.headers["x-content-type-options"], "nosniff");
    assert.match(res.headers["content-disposition"], /^attachment; filename="Resume ete.txt"; filename\*=UTF-8''R%C3%A9sum%C3%A9%20%C3%A9t%C3%A9.txt$/);
    assert.equal(md5(res.body), file.hash);
  });
  await check("Range 206 with Content-Range and Content-Length", async () => {
    const res = await raw("GET", `/api/file/${file.id}/download`, { ...auth, Range: "bytes=-500", "Accept-Encoding": "gzip" });
    assert.equal(res.status, 206);
    assert.equal(res.headers["content-range"], `bytes ${text.length - 500}-${text.length - 1}/${text.length}`);
    assert.equal(res.headers["content-length"], "500");
    assert.ok(res.body.equals(text.subarray(text.length - 500)));
  });
  await check("HEAD, 304, 416 and JSON errors", async () => {
    const head = await raw("HEAD", `/api/file/${file.id}/download`, auth);
    assert.equal(head.status, 200);
    assert.equal(head.headers["content-length"], String(text.length));
    assert.equal((await raw("GET", `/api/file/${file.id}/download`, { ...auth, "If-None-Match": `"${file.hash}"` })).status, 304);
    const past = await raw("GET", `/api/file/${file.id}/download`, { ...auth, Range: `bytes=${text.length}-` });
    assert.equal(past.status, 416);
    assert.equal(past.headers["content-range"], `bytes */${text.length}`);
    const anonymous = await raw("GET", `/api/file/${file.id}/download`, {});
    assert.equal(anonymous.status, 401);
    assert.match(anonymous.headers["content-type"], /application\/json/);
    assert.equal(JSON.parse(anonymous.body).code, "unauthorized");
  });
  await check("GET /api/file/download?token= (pages route, ahead of app/api/file/[fileId])", async () => {
    const { token: fileToken } = await json("POST", `/api/token/file/${file.id}/download`, { headers: auth });
    const res = await raw("GET", `/api/file/download?token=${encodeURIComponent(fileToken)}`, { "Accept-Encoding": "gzip" });
    assert.equal(res.status, 200);
    assert.equal(res.headers["content-length"], String(text.length));
    assert.equal(md5(res.body), file.hash);
  });
  await check("the App Router routes beside them still answer", async () => {
    assert.equal((await raw("GET", `/api/file/${file.id}`, auth)).status, 200);
    const unknown = await raw("GET", "/api/no/such/operation", auth);
    assert.equal(unknown.status, 404);
    assert.equal(JSON.parse(unknown.body).code, "not_found");
  });
  await check("chunked upload and tus through Next", async () => {
    const data = randomBytes(300_000);
    const chunk = async (i) => {
      const f = new FormData();
      for (const [k, v] of Object.entries({ chunk: i, chunks: 3, chunksSize: 100_000, fileSize: data.length, fileHash: md5(data) })) f.append(k, String(v));
      f.append("targetFile", new Blob([data.subarray(i * 100_000, (i + 1) * 100_000)]), "chunked.bin");
      return fetch(`${base}/api/file/upload`, { method: "POST", headers: auth, body: f });
    };
    assert.equal(await (await chunk(0)).text(), "OK");
    // The last index with a hole left: the missing list comes without asking.
    assert.deepEqual(await (await chunk(2)).json(), [{ missing: 1 }]);
    assert.equal((await chunk(1)).status, 201);

    const [{ sessionKey }] = await json("POST", "/api/file/tus", { headers: auth, body: { name: "tus.bin", target: file.parent_id, size: data.length } });
    const tusHeaders = { ...auth, "Tus-Resumable": "1.0.0" };
    const created = await fetch(`${base}/api/tus`, { method: "POST", headers: { ...tusHeaders, "Upload-Length": String(data.length), "Upload-Metadata": `token ${Buffer.from(sessionKey).toString("base64")}` } });
    assert.equal(created.status, 201);
    const location = new URL(created.headers.get("location"), base).toString();
    const patch = await fetch(location, { method: "PATCH", headers: { ...tusHeaders, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" }, body: data });
    assert.equal(patch.status, 204);
    const finished = await json("POST", "/api/file/tus", { headers: auth, body: { token: sessionKey }, status: 201 });
    assert.equal(finished.hash, md5(data));
  });

  const mib = Number(process.env.THROUGHPUT_MIB) || 0;
  if (mib > 0) await measureThroughput(mib, auth, file.parent_id);
} catch (error) {
  results.push(["FAIL", "setup", error.message]);
  console.error(serverLog.slice(-4000));
} finally {
  server.kill("SIGTERM");
  rmSync(dataDir, { recursive: true, force: true });
}

for (const [status, name, detail] of results) console.log(`${status.padEnd(4)} ${name}${detail ? `: ${detail}` : ""}`);
process.exit(results.some(([s]) => s === "FAIL") ? 1 : 0);

async function measureThroughput(mib, auth, folderId) {
  const bytes = mib * 1024 * 1024;
  const source = path.join(dataDir, "source.bin");
  await pipeline(
    (async function* () {
      for (let left = bytes; left > 0; left -= 1 << 20) yield randomBytes(Math.min(left, 1 << 20));
    })(),
    createWriteStream(source),
  );
  const reference = await startReference(source, path.join(dataDir, "received.bin"));
  // Wall time depends on whatever else the machine runs; CPU seconds per GiB of each server do not.
  const measure = async (pid, fn) => {
    const cpu0 = cpuSeconds(pid);
    const rss0 = rss(pid);
    let peak = rss0;
    const sampler = setInterval(() => (peak = Math.max(peak, rss(pid))), 200);
    const start = process.hrtime.bigint();
    await fn();
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    clearInterval(sampler);
    return { rate: mib / seconds, cpuPerGiB: ((cpuSeconds(pid) - cpu0) * 1024) / mib, rssGrowth: (peak - rss0) / 2 ** 20 };
  };
  const rounds = Number(process.env.THROUGHPUT_ROUNDS) || 3;
  const runs = { refUp: [], appUp: [], appTus: [], refDown: [], appDown: [] };
  for (let round = 0; round < rounds; round++) {
    runs.refUp.push(await measure(reference.pid, () => upload(`${reference.url}/upload`, source, {}, null)));
    runs.appUp.push(await measure(server.pid, () => upload(`${base}/api/file/upload`, source, auth, folderId)));
    runs.appTus.push(await measure(server.pid, () => uploadTus(source, auth, folderId)));
    runs.refDown.push(await measure(reference.pid, () => download(`${reference.url}/file`, {})));
    runs.appDown.push(await measure(server.pid, () => download(`${base}/api/file/${lastUploaded}/download`, auth)));
  }
  const median = (list, key) => list.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const line = (what, app, ref) =>
    `${what} ${mib} MiB (median of ${rounds}): app ${median(app, "rate").toFixed(0)} MiB/s, bare node ${median(ref, "rate").toFixed(0)} MiB/s, ` +
    `ratio ${(median(app, "rate") / median(ref, "rate")).toFixed(2)}; CPU s/GiB app ${median(app, "cpuPerGiB").toFixed(2)}, bare ${median(ref, "cpuPerGiB").toFixed(2)}; ` +
    `RSS growth app max ${Math.max(...app.map((r) => r.rssGrowth)).toFixed(0)} MiB`;
  results.push(["info", line("upload (multipart)", runs.appUp, runs.refUp)]);
  results.push(["info", line("upload (tus, one PATCH, finalised)", runs.appTus, runs.refUp)]);
  results.push(["info", line("download", runs.appDown, runs.refDown)]);
  reference.process.kill();
}

/** user + system CPU seconds of a process, all its threads (Linux). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rss(pid) {
  return Number(execFileSync("ps", ["-o", "rss=", "-p", String(pid)]).toString().trim()) * 1024;
}

/** Streams a multipart body around a file on disk (no buffering), as a browser would. */
function upload(url, file, headers, folderId) {
  const boundary = `----check${randomBytes(8).toString("hex")}`;
  const head = Buffer.from(
    (folderId ? `--${boundary}\r\nContent-Disposition: form-data; name="folderId"\r\n\r\n${folderId}\r\n` : "") +
      `--${boundary}\r\nContent-Disposition: form-data; name="targetFile"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + statSync(file).size + tail.length;
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", headers: { ...headers, "Content-Type": `multipart/form-data; boundary=${boundary}`, "Content-Length": length } }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => {
        if (res.statusCode >= 300) return reject(new Error(`upload answered ${res.statusCode}: ${body.slice(0, 300)}`));
        try {
          lastUploaded = JSON.parse(body).id;
        } catch {}
        resolve();
      });
    });
    req.on("error", reject);
    req.write(head);
    const stream = createReadStream(file, { highWaterMark: 1 << 20 });
    stream.on("end", () => req.end(tail));
    stream.pipe(req, { end: false });
  });
}

/** A resumable upload as tus-js-client sends it with its default chunk size: open, create, one PATCH, finalise. */
async function uploadTus(file, auth, folderId) {
  const size = statSync(file).size;
  const [{ sessionKey }] = await json("POST", "/api/file/tus", { headers: auth, body: { name: "big-tus.bin", target: folderId, size } });
  const tusHeaders = { ...auth, "Tus-Resumable": "1.0.0" };
  const created = await fetch(`${base}/api/tus`, { method: "POST", headers: { ...tusHeaders, "Upload-Length": String(size), "Upload-Metadata": `token ${Buffer.from(sessionKey).toString("base64")}` } });
  if (created.status !== 201) throw new Error(`tus creation answered ${created.status}`);
  const location = new URL(created.headers.get("location"), base).toString();
  await new Promise((resolve, reject) => {
    const req = http.request(location, { method: "PATCH", headers: { ...tusHeaders, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream", "Content-Length": size } }, (res) => {
      res.resume();
      res.on("end", () => (res.statusCode === 204 ? resolve() : reject(new Error(`tus PATCH answered ${res.statusCode}`))));
    });
    req.on("error", reject);
    createReadStream(file, { highWaterMark: 1 << 20 }).pipe(req);
  });
  await json("POST", "/api/file/tus", { headers: auth, body: { token: sessionKey }, status: 201 });
}

function download(url, headers) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`download answered ${res.statusCode}`));
        if (!res.headers["content-length"]) return reject(new Error("download without Content-Length"));
        res.on("data", () => {});
        res.on("end", resolve);
      })
      .on("error", reject);
  });
}

/** The no-framework limit, in a process of its own: node:http streaming the same file from disk and a body to disk (flushed, as the blob store does). */
async function startReference(file, target) {
  const code = `
    import http from "node:http";
    import { createReadStream, createWriteStream, statSync } from "node:fs";
    import { pipeline } from "node:stream/promises";
    const [file, target] = process.argv.slice(1);
    const server = http.createServer(async (req, res) => {
      if (req.method === "GET") {
        res.writeHead(200, { "Content-Length": statSync(file).size, "Content-Type": "application/octet-stream" });
        await pipeline(createReadStream(file, { highWaterMark: 1 << 20 }), res);
      } else {
        await pipeline(req, createWriteStream(target, { flush: true, highWaterMark: 1 << 20 }));
        res.writeHead(201).end("{}");
      }
    });
    server.listen(0, "127.0.0.1", () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", code, file, target], { stdio: ["ignore", "pipe", "inherit"] });
  const [port] = await once(child.stdout, "data");
  return { url: `http://127.0.0.1:${String(port).trim()}`, pid: child.pid, process: child };
}

async function json(method, route, { headers = {}, body, status } = {}) {
  const res = await fetch(`${base}${route}`, { method, headers: { ...headers, ...(body ? { "Content-Type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  if (status ? res.status !== status : res.status >= 300) throw new Error(`${method} ${route} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** node:http, not fetch: fetch would decompress and hide what Next actually sent. */
function raw(method, route, headers) {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${route}`, { method, headers }, (res) => {
      const chunks = [];
      res.on("data", (d) => chunks.push(d));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

function md5(data) {
  return createHash("md5").update(data).digest("hex");
}

async function waitForHealth() {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}`);
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.status === 200) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("the server did not become healthy in 180 s");
}

async function freePort(from, to) {
  for (let p = from + Math.floor(Math.random() * (to - from)); ; p = p >= to ? from : p + 1) {
    const free = await new Promise((resolve) => {
      const probe = net.createServer().once("error", () => resolve(false)).once("listening", () => probe.close(() => resolve(true)));
      probe.listen(p, "127.0.0.1");
    });
    if (free) return p;
  }
}
