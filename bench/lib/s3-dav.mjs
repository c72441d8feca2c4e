// The object-storage and WebDAV rows of npm run bench (issue 18), each beside a reference measured
// in the same run: s3rver's own throughput (the SDK straight to the bucket) for STORAGE=s3, and
// the bare node server's PUT and GET for /dav/.
import { spawn } from "node:child_process";
import { createReadStream, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { expectStatus, json, request } from "./http-client.mjs";
import { startApp, stopProcess } from "./servers.mjs";
import { downloadWhole, putFile, uploadMultipart } from "./transfers.mjs";
import { attempt, freePort, log, mibPerSecond } from "./util.mjs";

const KEY = "S3RVER";
// The SDK is pinned to its last line for Node 20 (environment.md): its notice of that says nothing to act on.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
const BUCKET = "coffre-bench";

// s3rver in a child process of its own (as tests/helpers/s3rver.ts), so its CPU is not the bench's.
const S3RVER = `
const S3rver = require("s3rver");
const [directory, bucket] = process.argv.slice(1);
new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket }] })
  .run()
  .then((address) => process.stdout.write(JSON.stringify({ port: address.port }) + "\\n"))
  .catch((error) => { console.error(error); process.exit(1); });
`;

async function startS3rver(root, directory) {
  const child = spawn(process.execPath, ["-e", S3RVER, directory, BUCKET], { cwd: root, stdio: ["ignore", "pipe", "inherit"], detached: true });
  const port = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", (line) => resolve(JSON.parse(line).port));
    child.once("exit", (code) => reject(new Error(`s3rver exited (${code})`)));
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {}
      await exited;
    },
  };
}

/**
 * STORAGE=s3: a second server on the same database with its blobs on s3rver. Upload (one multipart
 * POST) and download of the source file through it, against the AWS SDK writing (lib-storage, as
 * the store does) and reading the same bytes straight to and from s3rver.
 */
export async function benchS3({ root, tmp, source, size, databaseUrl, admin, user, rounds, report, figures }) {
  if (!databaseUrl) {
    report.note("S3 rows: a second server on the database needs PostgreSQL (DATABASE_URL); PGlite allows one process.");
    return;
  }
  const s3Dir = mkdtempSync(path.join(tmp, "s3rver-"));
  const s3 = await startS3rver(root, s3Dir);
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: KEY, secretAccessKey: KEY },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = path.join(tmp, "data-s3");
  mkdirSync(dataDir, { recursive: true });
  let app = null;
  try {
    app = await startApp({
      root, port, dataDir, databaseUrl, admin, logFile: path.join(tmp, "next-s3.log"),
      extraEnv: { STORAGE: "s3", S3_ENDPOINT: s3.endpoint, S3_BUCKET: BUCKET, S3_ACCESS_KEY_ID: KEY, S3_SECRET_ACCESS_KEY: KEY },
    });
    const token = json(await request(`${base}/api/auth`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ user: user.login, password: user.password }) })).token;
    const account = json(await request(`${base}/api/account`, { headers: { Authorization: `Bearer ${token}` } }));
    const folderId = account.roots[0];
    const r = { directPut: [], directGet: [], appUpload: [], appDownload: [] };
    for (let i = 0; i < rounds; i++) {
      log(`S3 round ${i + 1}/${rounds}: SDK straight to s3rver, then through Coffre`);
      r.directPut.push(await attempt("s3 direct put", async () => {
        const started = performance.now();
        await new Upload({ client, params: { Bucket: BUCKET, Key: `direct/${i}`, Body: createReadStream(source, { highWaterMark: 1 << 20 }), ContentLength: size }, partSize: 5 << 20, queueSize: 2 }).done();
        const ms = performance.now() - started;
        return { ms, bytes: size, mibps: mibPerSecond(size, ms) };
      }));
      r.directGet.push(await attempt("s3 direct get", async () => {
        const started = performance.now();
        const answer = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: `direct/${i}` }));
        let bytes = 0;
        for await (const chunk of answer.Body) bytes += chunk.length;
        if (bytes !== size) throw new Error(`direct GET: ${bytes} bytes`);
        const ms = performance.now() - started;
        return { ms, bytes, mibps: mibPerSecond(bytes, ms) };
      }));
      const up = await attempt("s3 app upload", () => uploadMultipart(base, token, { folderId, name: `s3-${i}.bin`, file: source, size }));
      r.appUpload.push(up);
      r.appDownload.push(up.file?.id ? await attempt("s3 app download", () => downloadWhole(`${base}/api/file/${up.file.id}/download`, { Authorization: `Bearer ${token}` }, size)) : up);
    }
    const best = (list) => median(list.map((x) => x?.mibps).filter((x) => typeof x === "number"));
    figures.s3 = r;
    report.ratio(`STORAGE=s3 upload ${size / (1 << 20)} MiB (multipart POST)`, "MiB/s", best(r.appUpload), best(r.directPut), "s3rver direct", 0.5);
    report.ratio(`STORAGE=s3 download ${size / (1 << 20)} MiB whole`, "MiB/s", best(r.appDownload), best(r.directGet), "s3rver direct", 0.5);
  } finally {
    if (app) await stopProcess(app);
    client.destroy();
    await s3.stop();
    rmSync(s3Dir, { recursive: true, force: true });
  }
}

/** WebDAV: PUT then GET of the source file at /dav/Private/ (Bearer), against the bare node server's PUT and GET. */
export async function benchDav({ base, refBase, token, source, size, rounds, report, figures }) {
  const auth = { Authorization: `Bearer ${token}` };
  const r = { put: [], get: [], refPut: [], refGet: [] };
  for (let i = 0; i < rounds; i++) {
    log(`WebDAV round ${i + 1}/${rounds}`);
    const order = i % 2 === 0 ? ["ref", "app"] : ["app", "ref"];
    for (const side of order) {
      if (side === "ref") {
        r.refPut.push(await attempt("ref put", () => putFile(`${refBase}/upload/dav-${i}.bin`, source, size)));
        r.refGet.push(await attempt("ref get", () => downloadWhole(`${refBase}/file`, {}, size)));
      } else {
        const url = `${base}/dav/Private/dav-${i}.bin`;
        r.put.push(await attempt("dav put", async () => {
          const res = await request(url, { method: "PUT", headers: { ...auth, "Content-Type": "application/octet-stream", "Content-Length": size }, body: () => createReadStream(source, { highWaterMark: 1 << 20 }), agent: false });
          expectStatus(res, [201, 204], `PUT ${url}`);
          return { ms: res.ms, bytes: size, mibps: mibPerSecond(size, res.ms) };
        }));
        r.get.push(await attempt("dav get", () => downloadWhole(url, auth, size)));
      }
    }
  }
  const best = (list) => median(list.map((x) => x?.mibps).filter((x) => typeof x === "number"));
  figures.dav = r;
  report.ratio(`WebDAV PUT ${size / (1 << 20)} MiB`, "MiB/s", best(r.put), best(r.refPut), "node PUT", 0.9);
  report.ratio(`WebDAV GET ${size / (1 << 20)} MiB`, "MiB/s", best(r.get), best(r.refGet), "node", 0.9);
}

function median(values) {
  if (values.length === 0) return { na: "every attempt failed" };
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
