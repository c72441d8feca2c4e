import { createHash, randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import http from "node:http";
import { Readable } from "node:stream";

/**
 * One request; the body (string, Buffer, or a function returning a Readable) is streamed.
 * Resolves {status, headers, bytes, text?, md5?, ms}. With `discard`, the answer is only counted
 * (downloads), otherwise collected as text (capped at 1 MiB); with `md5`, its MD5 is computed too.
 */
// Without an agent, each request has its own connection: a pooled idle socket the server closes
// at the moment it is reused fails with "socket hang up" (keep-alive race). Load tests pass their
// own busy keep-alive agent.
export function request(url, { method = "GET", headers = {}, body, discard = false, agent = false, md5 = false } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(url, { method, headers, agent }, (res) => {
      let bytes = 0;
      const parts = [];
      let kept = 0;
      const hash = md5 ? createHash("md5") : null;
      res.on("data", (chunk) => {
        bytes += chunk.length;
        hash?.update(chunk);
        if (!discard && kept < 1 << 20) {
          parts.push(chunk);
          kept += chunk.length;
        }
      });
      res.on("end", () =>
        resolve({
          status: res.statusCode,
          headers: res.headers,
          bytes,
          text: discard ? undefined : Buffer.concat(parts).toString("utf8"),
          md5: hash?.digest("hex"),
          ms: performance.now() - started,
        }),
      );
      res.on("error", reject);
      // A connection cut mid-answer (a killed server behind a proxy) must not pass for an answer.
      res.on("close", () => {
        if (!res.complete) reject(Object.assign(new Error("answer cut before its end"), { code: "ECONNRESET" }));
      });
    });
    req.on("error", reject);
    if (body === undefined) req.end();
    else if (typeof body === "function") {
      const stream = body();
      stream.on("error", (error) => req.destroy(error));
      stream.pipe(req);
    } else req.end(body);
  });
}

export function json(res) {
  try {
    return JSON.parse(res.text);
  } catch {
    return undefined;
  }
}

/** Fails with the answer's status and start of body unless the status is one of `ok`. */
export function expectStatus(res, ok, what) {
  const list = Array.isArray(ok) ? ok : [ok];
  if (!list.includes(res.status)) throw new Error(`${what}: HTTP ${res.status} ${String(res.text ?? "").slice(0, 200)}`);
  return res;
}

/**
 * A multipart/form-data body streamed from disk: `fields` first (so the server knows the
 * target before the bytes arrive), then `file` ({name, path, start, end} or {name, buffer}).
 */
export function multipartBody(fields, file) {
  const boundary = `----coffrebench${randomBytes(12).toString("hex")}`;
  let head = "";
  for (const [key, value] of Object.entries(fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`;
  }
  head += `--${boundary}\r\nContent-Disposition: form-data; name="targetFile"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const fileSize = file.buffer ? file.buffer.length : file.end - file.start + 1;
  const length = Buffer.byteLength(head) + fileSize + Buffer.byteLength(tail);
  const stream = () =>
    Readable.from(
      (async function* () {
        yield Buffer.from(head);
        if (file.buffer) yield file.buffer;
        else yield* createReadStream(file.path, { start: file.start, end: file.end, highWaterMark: 1 << 20 });
        yield Buffer.from(tail);
      })(),
    );
  return { contentType: `multipart/form-data; boundary=${boundary}`, length, stream };
}
