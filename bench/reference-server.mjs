// The no-framework limit the bench compares Coffre with: a bare node:http server that streams a
// file from disk (Content-Length, single Range), receives a PUT/POST to disk (MD5 in line, fsync), and, when
// DATABASE_URL is set, answers the app's metadata queries with postgres.js.
//
// Env: PORT, REF_FILE (the file GET /file serves), REF_UPLOAD_DIR, DATABASE_URL (optional),
// DATABASE_POOL_SIZE (default 10, as the app).
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { metadataHandlers } from "./lib/reference-queries.mjs";

const port = Number(process.env.PORT);
const file = process.env.REF_FILE;
const uploadDir = process.env.REF_UPLOAD_DIR;

let sql = null;
let metadata = null;
if (process.env.DATABASE_URL) {
  const { default: postgres } = await import("postgres");
  sql = postgres(process.env.DATABASE_URL, { max: Number(process.env.DATABASE_POOL_SIZE ?? 10), onnotice: () => {} });
  metadata = metadataHandlers(sql);
}

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url, "http://localhost");
    if (url.pathname === "/health") return send(res, 200, { status: "ok" });
    if (url.pathname === "/file" && req.method === "GET") return serveFile(req, res);
    if (url.pathname.startsWith("/upload/") && (req.method === "PUT" || req.method === "POST")) return receive(req, res, url);
    if (metadata && url.pathname.startsWith("/api/")) {
      const open = await metadata.open(url);
      if (open !== undefined) return send(res, 200, open);
      const user = await authenticate(req);
      if (!user) return send(res, 401, { error: "unauthorized", code: 401 });
      const result = await metadata.route(url, user);
      if (result === undefined) return send(res, 404, { error: "not_found", code: 404 });
      return send(res, 200, result);
    }
    send(res, 404, { error: "not_found", code: 404 });
  } catch (error) {
    if (!res.headersSent) send(res, 500, { error: String(error.message), code: 500 });
    else res.destroy();
  }
});
server.keepAliveTimeout = 65_000;
server.listen(port, "127.0.0.1");

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

async function authenticate(req) {
  const header = req.headers.authorization ?? "";
  const token = header.startsWith("Bearer ") ? header.slice(7) : "";
  if (!token) return null;
  const hash = createHash("sha256").update(token).digest("hex");
  const [user] = await sql`
    SELECT u.* FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.token_hash = ${hash} LIMIT 1`;
  return user ?? null;
}

async function serveFile(req, res) {
  const size = statSync(file).size;
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
  let start = 0;
  let end = size - 1;
  let status = 200;
  if (range) {
    if (range[1] === "") start = Math.max(0, size - Number(range[2]));
    else {
      start = Number(range[1]);
      if (range[2] !== "") end = Math.min(size - 1, Number(range[2]));
    }
    if (start > end || start >= size) {
      res.writeHead(416, { "Content-Range": `bytes */${size}` });
      return res.end();
    }
    status = 206;
  }
  const headers = { "Content-Type": "application/octet-stream", "Content-Length": end - start + 1 };
  if (status === 206) headers["Content-Range"] = `bytes ${start}-${end}/${size}`;
  res.writeHead(status, headers);
  await pipeline(createReadStream(file, { start, end, highWaterMark: 1 << 20 }), res).catch(() => res.destroy());
}

// The honest floor of a store (issue 26): the MD5 computed in line as the bytes pass (on this
// thread, no copy), written with fsync at close as the app's blob store does (`flush: true`), so
// both are durable and both know the content's hash.
async function receive(req, res, url) {
  const name = path.basename(decodeURIComponent(url.pathname.slice("/upload/".length))) || "upload.bin";
  const target = path.join(uploadDir, name);
  const md5 = createHash("md5");
  let size = 0;
  try {
    await pipeline(
      req,
      async function* (source) {
        for await (const chunk of source) {
          md5.update(chunk);
          size += chunk.length;
          yield chunk;
        }
      },
      createWriteStream(target, { flush: true, highWaterMark: 1 << 20 }),
    );
  } catch (error) {
    await rm(target, { force: true });
    throw error;
  }
  send(res, 201, { name, size, md5: md5.digest("hex") });
}

const shutdown = async () => {
  server.close();
  if (sql) await sql.end({ timeout: 2 }).catch(() => {});
  process.exit(0);
};
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
