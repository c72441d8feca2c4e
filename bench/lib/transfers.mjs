import { createReadStream } from "node:fs";
import http from "node:http";
import { expectStatus, json, multipartBody, request } from "./http-client.mjs";
import { mibPerSecond } from "./util.mjs";

// Transfers use a fresh connection each (agent: false): no pooled socket state between runs.
const fresh = { agent: false };

/** The whole file; checks the status and the byte count. */
export async function downloadWhole(url, headers, size) {
  const res = await request(url, { headers, discard: true, ...fresh });
  expectStatus(res, 200, `GET ${url}`);
  if (res.bytes !== size) throw new Error(`GET ${url}: ${res.bytes} bytes, expected ${size}`);
  return { ms: res.ms, bytes: res.bytes, mibps: mibPerSecond(res.bytes, res.ms), contentLength: res.headers["content-length"] !== undefined };
}

/** `parts` parallel Range requests covering the file; each must answer 206 with its exact slice. */
export async function downloadRanges(url, headers, size, parts = 4) {
  const slice = Math.ceil(size / parts);
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: parts }, async (_, i) => {
      const start = i * slice;
      const end = Math.min(size, start + slice) - 1;
      const res = await request(url, { headers: { ...headers, Range: `bytes=${start}-${end}` }, discard: true, ...fresh });
      expectStatus(res, 206, `GET ${url} Range ${start}-${end}`);
      if (res.bytes !== end - start + 1) throw new Error(`range ${start}-${end}: ${res.bytes} bytes`);
      if (res.headers["content-range"] !== `bytes ${start}-${end}/${size}`) throw new Error(`range ${start}-${end}: Content-Range ${res.headers["content-range"]}`);
      return res;
    }),
  );
  const ms = performance.now() - started;
  const bytes = answers.reduce((sum, r) => sum + r.bytes, 0);
  return { ms, bytes, mibps: mibPerSecond(bytes, ms), contentLength: answers.every((r) => r.headers["content-length"] !== undefined) };
}

/**
 * `clients` downloads at once, each a `sliceBytes` range (206) at its own offset of the file:
 * many people fetching large files from one server. Aggregate throughput over the wall time.
 */
export async function downloadConcurrent(url, headers, size, { clients = 20, sliceBytes = 100 << 20 } = {}) {
  const slice = Math.min(sliceBytes, size);
  const stride = clients > 1 ? Math.floor((size - slice) / (clients - 1)) : 0;
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      const start = i * stride;
      const end = start + slice - 1;
      const res = await request(url, { headers: { ...headers, Range: `bytes=${start}-${end}` }, discard: true, ...fresh });
      expectStatus(res, 206, `GET ${url} Range ${start}-${end}`);
      if (res.bytes !== slice) throw new Error(`range ${start}-${end}: ${res.bytes} bytes`);
      return res;
    }),
  );
  const ms = performance.now() - started;
  const bytes = answers.reduce((sum, r) => sum + r.bytes, 0);
  return { ms, bytes, mibps: mibPerSecond(bytes, ms) };
}

/** A PUT of the whole file to a bare server (the references). */
export async function putFile(url, file, size) {
  const res = await request(url, {
    method: "PUT",
    headers: { "Content-Type": "application/octet-stream", "Content-Length": size },
    body: () => createReadStream(file, { highWaterMark: 1 << 20 }),
    ...fresh,
  });
  expectStatus(res, [200, 201, 204], `PUT ${url}`);
  return { ms: res.ms, bytes: size, mibps: mibPerSecond(size, res.ms) };
}

/** POST /api/file/upload with the whole file in one multipart request. */
export async function uploadMultipart(base, token, { folderId, name, file, size }) {
  const body = multipartBody({ folderId }, { name, path: file, start: 0, end: size - 1 });
  const res = await request(`${base}/api/file/upload`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": body.contentType, "Content-Length": body.length },
    body: body.stream,
    ...fresh,
  });
  expectStatus(res, [200, 201], "multipart upload");
  return { ms: res.ms, bytes: size, mibps: mibPerSecond(size, res.ms), file: json(res) };
}

/** The chunked protocol: sequential 16 MiB slices (chunk, chunks, chunksSize, fileSize), the last answers the File. */
export async function uploadChunked(base, token, { folderId, name, file, size, chunkSize = 16 << 20 }) {
  const chunks = Math.ceil(size / chunkSize);
  const started = performance.now();
  let last;
  for (let chunk = 0; chunk < chunks; chunk++) {
    const start = chunk * chunkSize;
    const end = Math.min(size, start + chunkSize) - 1;
    const body = multipartBody(
      { folderId, chunk, chunks, chunksSize: chunkSize, fileSize: size },
      { name, path: file, start, end },
    );
    last = await request(`${base}/api/file/upload`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": body.contentType, "Content-Length": body.length },
      body: body.stream,
      ...fresh,
    }).catch((error) => {
      throw new Error(`chunk ${chunk}/${chunks}: ${error.message}`);
    });
    expectStatus(last, [200, 201], `chunk ${chunk}/${chunks}`);
  }
  const ms = performance.now() - started;
  return { ms, bytes: size, mibps: mibPerSecond(size, ms), file: json(last), chunks };
}

/**
 * tus as the web client does it: open a session (POST /api/file/tus), create the upload at
 * /api/tus with the session key in Upload-Metadata, one PATCH with the whole file
 * (tus-js-client's default chunkSize is Infinity), then finalise (POST /api/file/tus {token}).
 */
export async function uploadTus(base, token, { folderId, name, file, size }) {
  const auth = { Authorization: `Bearer ${token}` };
  const started = performance.now();
  const opened = await request(`${base}/api/file/tus`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({ name, target: folderId, size }),
  });
  expectStatus(opened, [200, 201], "tus session");
  const sessionKey = json(opened)?.[0]?.sessionKey;
  if (!sessionKey) throw new Error(`tus session: no sessionKey in ${opened.text.slice(0, 200)}`);
  const b64 = (s) => Buffer.from(String(s)).toString("base64");
  const created = await request(`${base}/api/tus`, {
    method: "POST",
    headers: {
      ...auth,
      "Tus-Resumable": "1.0.0",
      "Upload-Length": size,
      "Upload-Metadata": `token ${b64(sessionKey)},filename ${b64(name)}`,
      "Content-Length": 0,
    },
  });
  expectStatus(created, 201, "tus creation");
  const location = new URL(created.headers.location, `${base}/api/tus`).toString();
  const patched = await request(location, {
    method: "PATCH",
    headers: {
      ...auth,
      "Tus-Resumable": "1.0.0",
      "Upload-Offset": 0,
      "Content-Type": "application/offset+octet-stream",
      "Content-Length": size,
    },
    body: () => createReadStream(file, { highWaterMark: 1 << 20 }),
    ...fresh,
  });
  expectStatus(patched, 204, "tus PATCH");
  if (Number(patched.headers["upload-offset"]) !== size) throw new Error(`tus PATCH: Upload-Offset ${patched.headers["upload-offset"]}`);
  const finished = await request(`${base}/api/file/tus`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({ token: sessionKey }),
  });
  expectStatus(finished, [200, 201], "tus finalise");
  const ms = performance.now() - started;
  return { ms, bytes: size, mibps: mibPerSecond(size, ms), file: json(finished) };
}

/** `count` uploads of `buffer`, `concurrency` at a time; `send(i)` resolves a response. */
export async function manySmall(count, concurrency, send) {
  let next = 0;
  let errors = 0;
  const statuses = {};
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        try {
          const res = await send(i);
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          if (res.status >= 300) errors++;
        } catch {
          errors++;
          statuses.network = (statuses.network ?? 0) + 1;
        }
      }
    }),
  );
  const ms = performance.now() - started;
  return { count, concurrency, ms, perSecond: count / (ms / 1000), errors, statuses };
}

/** Kept-alive connections for the small uploads, one agent per measured server. */
export const newSmallAgent = (maxSockets) => new http.Agent({ keepAlive: true, maxSockets });
