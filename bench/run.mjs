// npm run bench: builds if needed, starts `next start` on a fresh data folder and database, seeds,
// measures every scenario beside a reference measured in the same run, prints one table and writes
// the figures to bench/results/. See bench/README.md for the options.
import { execFileSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createWriteStream, linkSync, mkdirSync, mkdtempSync, rmSync, copyFileSync, writeFileSync, readdirSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import { ensureBuild } from "./lib/build.mjs";
import { createBenchDatabase, openSeedClient, seed } from "./lib/database.mjs";
import { expectStatus, json, multipartBody, request } from "./lib/http-client.mjs";
import { sequentialLatency, throughput } from "./lib/load.mjs";
import { cpuMs, processTree, RssSampler } from "./lib/memory.mjs";
import { findNginx, startNginx } from "./lib/nginx.mjs";
import { Report } from "./lib/report.mjs";
import { runScale } from "./lib/scale.mjs";
import { inRounds } from "./lib/rounds.mjs";
import { killAllChildrenSync, startApp, startProcess, stopProcess, tail } from "./lib/servers.mjs";
import { benchDavListing } from "./lib/dav-listing.mjs";
import { benchEngagement, seedEngagement } from "./lib/engagement.mjs";
import { benchDav, benchS3 } from "./lib/s3-dav.mjs";
import { runSoak } from "./lib/soak.mjs";
import { downloadConcurrent, downloadRanges, downloadWhole, manySmall, putFile, newSmallAgent, uploadChunked, uploadMultipart, uploadTus } from "./lib/transfers.mjs";
import { attempt, freePort, log, md5File, MiB, round } from "./lib/util.mjs";

const root = path.resolve(import.meta.dirname, "..");
const quick = process.env.BENCH_QUICK === "1";
// Keeps the database and the temporary folder for inspection (servers are stopped all the same).
const keep = process.env.BENCH_KEEP === "1";
// Sections: downloads, uploads, metadata, small (the default set), s3 and dav (issue 18), soak (issue 26; asked by name).
const only = new Set((process.env.BENCH_ONLY ?? "downloads,uploads,metadata,small,s3,dav").split(",").map((s) => s.trim()));
// The link analytics row (issue 30) seeds a million page events: asked for by BENCH_ENGAGEMENT=1 or BENCH_ONLY=engagement.
if (process.env.BENCH_ENGAGEMENT === "1") only.add("engagement");
// Only the S3 and WebDAV rows: they read no seeded tree but the 10,000-file folder PROPFIND lists, so the seed is the small one.
const smallSeed = quick || !["downloads", "uploads", "metadata", "small", "soak"].some((s) => only.has(s));
const config = {
  quick,
  sizeMb: Number(process.env.BENCH_SIZE_MB ?? (quick ? 64 : 1024)),
  bigFiles: smallSeed ? 10_000 : 100_000,
  // BENCH_FILES: the files seeded for the metadata scenarios (BENCH_SCALE=1: see bench/lib/scale.mjs).
  totalFiles: Number(process.env.BENCH_FILES ?? (smallSeed ? 100_000 : 1_000_000)),
  filesPerFolder: 1000,
  warmup: quick ? 10 : 30,
  sequential: quick ? 50 : 300,
  connections: 50,
  seconds: Number(process.env.BENCH_LOAD_SECONDS ?? (quick ? 3 : 8)),
  smallCount: 200,
  smallConcurrency: 20,
  smallBytes: 64 * 1024,
  driver: process.env.DATABASE_URL ? "postgres" : "pglite",
  // Each measured pair runs this many times, alternating which side goes first; the median counts.
  rounds: Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1)),
  // Downloads read the page cache and take seconds: three rounds by default tame the noise.
  downloadRounds: Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3)),
};

// ---- cleanup, whatever happens -------------------------------------------------------------
const cleanups = [];
let tmp = null;
let cleaning = null;
function cleanup() {
  cleaning ??= (async () => {
    while (cleanups.length) {
      const step = cleanups.pop();
      await step().catch((error) => log(`cleanup: ${error.message}`));
    }
  })();
  return cleaning;
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    log(`${signal}: cleaning up`);
    cleanup().finally(() => process.exit(130));
  });
}
process.on("exit", () => {
  killAllChildrenSync();
  if (tmp && !keep) rmSync(tmp, { recursive: true, force: true });
});

// ---- helpers ---------------------------------------------------------------------------------
async function writeSource(file, sizeMb) {
  const block = randomBytes(MiB);
  const out = createWriteStream(file);
  const hash = createHash("md5");
  for (let i = 0; i < sizeMb; i++) {
    hash.update(block);
    if (!out.write(block)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return hash.digest("hex");
}

function placeBlob(dataDir, source, { link }) {
  const id = randomUUID();
  const dir = path.join(dataDir, "blobs", id.slice(0, 2), id.slice(2, 4));
  mkdirSync(dir, { recursive: true });
  const target = path.join(dir, id);
  if (link) {
    try {
      linkSync(source, target);
    } catch {
      copyFileSync(source, target);
    }
  } else writeFileSync(target, source);
  return id;
}

/** Blob files of exactly `size` bytes in the store (the uploads), for the on-disk MD5 check. */
function blobsOfSize(dataDir, size) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "tmp") walk(full);
      } else if (statSync(full).size === size) found.push(full);
    }
  };
  walk(path.join(dataDir, "blobs"));
  return found;
}

/** The name at 0-based position `index` of bench-big sorted by name (doc-* sort before quarterly-*; see seed()). */
function nthDocName(index) {
  let n = 0;
  for (let seen = -1; seen < index; ) if (++n % 50000 !== 25000) seen++;
  return `doc-${String(n).padStart(7, "0")}.txt`;
}

async function signIn(base, user, password) {
  const res = await request(`${base}/api/auth`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ user, password }) });
  expectStatus(res, 200, `sign-in as ${user}`);
  return json(res).token;
}

/** Runs `fn` while watching the server's RSS and CPU time; returns fn's figures plus both. */
async function measured(sampler, fn) {
  const done = sampler ? sampler.window() : null;
  const pids = sampler ? processTree(sampler.rootPid) : [];
  const cpuBefore = cpuMs(pids);
  const result = await fn();
  const cpu = cpuMs(pids) - cpuBefore;
  return { ...result, rss: done ? done() : null, serverCpuMs: cpu, serverCpuMsPerMiB: result.bytes ? cpu / (result.bytes / MiB) : null };
}

// ---- main ------------------------------------------------------------------------------------
async function main() {
  if (process.env.BENCH_SCALE === "1") {
    await ensureBuild(root);
    return runScale({ root, cleanups });
  }
  const report = new Report();
  const figures = { config, startedAt: new Date().toISOString(), node: process.version, cpus: os.cpus().length, host: os.hostname() };
  figures.build = await ensureBuild(root);

  tmp = mkdtempSync(path.join(os.tmpdir(), "coffre-bench-"));
  cleanups.push(async () => {
    if (keep) log(`BENCH_KEEP=1: kept ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
    tmp = null;
  });
  const dataDir = path.join(tmp, "data");
  const refUploads = path.join(tmp, "ref-uploads");
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(refUploads, { recursive: true });
  const size = config.sizeMb * MiB;

  log(`writing the ${config.sizeMb} MiB source file`);
  const source = path.join(tmp, "source.bin");
  const sourceMd5 = await writeSource(source, config.sizeMb);

  let databaseUrl = null;
  if (process.env.DATABASE_URL) {
    const db = await createBenchDatabase(process.env.DATABASE_URL);
    cleanups.push(async () => (keep ? log(`BENCH_KEEP=1: kept database ${db.url}`) : db.drop()));
    databaseUrl = db.url;
    figures.database = db.name;
    log(`database ${db.name} created`);
  } else {
    figures.database = "pglite";
    report.note("Embedded PGlite (DATABASE_URL unset): the bare node + postgres.js metadata reference needs a second process on the database, which PGlite forbids (one process per data folder), so metadata references are n/a.");
  }

  const admin = { login: "benchadmin", password: `Adm-${randomBytes(9).toString("hex")}-7a` };
  const user = { login: "bench", password: `Usr-${randomBytes(9).toString("hex")}-7a` };
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const appLog = path.join(tmp, "next.log");
  const appEnv = { root, port, dataDir, databaseUrl, admin, logFile: appLog };
  const cpuProfDir = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : null;

  // 1. First start: migrations and the administrator; create the bench user; stop (PGlite
  //    allows one process per data folder, so the seed runs with the server down).
  log("first start: migrations and administrator");
  let app = await startApp(appEnv);
  cleanups.push(() => stopProcess(app));
  figures.firstStartMs = app.coldStartMs;
  const adminToken = await signIn(base, admin.login, admin.password);
  const created = await request(`${base}/api/user`, {
    method: "POST",
    headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ login: user.login, password: user.password, role: 2, firstname: "Bench", lastname: "User" }),
  });
  expectStatus(created, 201, "create the bench user");
  await stopProcess(app);

  // 2. Seed directly with SQL.
  const tinyContent = Buffer.from("coffre bench\n");
  const tiny = { id: placeBlob(dataDir, tinyContent, { link: false }), size: tinyContent.length, md5: createHash("md5").update(tinyContent).digest("hex") };
  const download = { id: placeBlob(dataDir, source, { link: true }), size, md5: sourceMd5 };
  log(`seeding ${config.totalFiles} files (${config.bigFiles} in one folder) on ${config.driver}`);
  const seedDb = await openSeedClient({ databaseUrl, dataDir });
  let seeded;
  try {
    seeded = await seed(seedDb, { login: user.login, bigFiles: config.bigFiles, totalFiles: config.totalFiles, filesPerFolder: config.filesPerFolder, tiny, download });
    if (only.has("engagement")) {
      log("seeding one link with 10,000 visits and 1,000,000 page events");
      seeded.engagement = await seedEngagement(seedDb, { login: user.login, fileId: seeded.downloadFileId, versionId: seeded.downloadVersionId });
    }
  } finally {
    await seedDb.close();
  }
  figures.seed = seeded;

  // 3. The measured start.
  log("measured start: next start until GET /api/health answers 200");
  // --cpu-prof is refused in NODE_OPTIONS: it goes on the command line (next start runs in this process).
  // BENCH_NODE_ARGS adds node flags to the measured server (for example --trace-gc).
  const extraNodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(/\s+/).filter(Boolean);
  app = await startApp({ ...appEnv, nodeArgs: [...(cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfDir}`] : []), ...extraNodeArgs] });
  figures.coldStartMs = app.coldStartMs;
  const appRss = new RssSampler(app.pid);
  cleanups.push(async () => appRss.stop());
  figures.appProcesses = appRss.pids.length;
  const token = await signIn(base, user.login, user.password);
  const auth = { Authorization: `Bearer ${token}` };

  // References: the bare node server (files, PUT, and metadata on PostgreSQL), nginx if installed.
  const refPort = await freePort();
  const refBase = `http://127.0.0.1:${refPort}`;
  const refEnv = { ...process.env, PORT: String(refPort), REF_FILE: source, REF_UPLOAD_DIR: refUploads };
  if (databaseUrl) refEnv.DATABASE_URL = databaseUrl;
  else delete refEnv.DATABASE_URL;
  const ref = await startProcess({
    name: "reference server",
    command: process.execPath,
    args: [path.join(root, "bench", "reference-server.mjs")],
    cwd: root,
    env: refEnv,
    logFile: path.join(tmp, "reference.log"),
    healthUrl: `${refBase}/health`,
  });
  cleanups.push(() => stopProcess(ref));
  const refRss = new RssSampler(ref.pid);
  cleanups.push(async () => refRss.stop());
  figures.refColdStartMs = ref.coldStartMs;
  report.below("cold start to first answer", "ms", figures.coldStartMs, figures.refColdStartMs, "node", undefined);

  let nginx = null;
  const nginxBinary = findNginx();
  if (nginxBinary) {
    const nginxPort = await freePort();
    nginx = await attempt("nginx", () => startNginx({ binary: nginxBinary, dir: path.join(tmp, "nginx"), port: nginxPort, file: source }));
    if (nginx.error) {
      report.note(`nginx failed to start: ${nginx.error}`);
      nginx = null;
    } else {
      nginx.base = `http://127.0.0.1:${nginxPort}`;
      cleanups.push(() => stopProcess(nginx));
    }
  } else report.note("nginx is not installed: its rows are n/a (apt-get install -y nginx).");
  const na = { na: "nginx not installed or not started" };

  const downloadUrl = `${base}/api/file/${seeded.downloadVersionId}/download`;
  const mb = (r) => (r?.rss ? r.rss.growth / MiB : r);

  // ---- downloads ----
  if (only.has("downloads")) {
    // Issue 12: 20 clients of 100 MiB each (a quarter of the file each in the quick run).
    const concurrent = { clients: 20, sliceBytes: Math.min(100 * MiB, Math.floor(size / 4)) };
    log(`download ${config.sizeMb} MiB: whole, 4 ranges, ${concurrent.clients} concurrent`);
    const d = {};
    // Warm-up: the first request of a route loads its code; the measured ones should not pay that.
    const warm = { Range: "bytes=0-1048575" };
    d.warmup = await attempt("download warm-up", async () => {
      for (const [url, headers] of [[`${refBase}/file`, {}], [downloadUrl, auth], ...(nginx ? [[`${nginx.base}/file.bin`, {}]] : [])]) {
        expectStatus(await request(url, { headers: { ...headers, ...warm }, discard: true }), 206, `warm-up ${url}`);
      }
      return { ok: true };
    });
    Object.assign(
      d,
      await inRounds(config.downloadRounds, [
        { key: "refWhole", label: "ref download", run: () => measured(refRss, () => downloadWhole(`${refBase}/file`, {}, size)) },
        { key: "nginxWhole", label: "nginx download", run: nginx && (() => downloadWhole(`${nginx.base}/file.bin`, {}, size)), skipped: na },
        { key: "appWhole", label: "app download", run: () => measured(appRss, () => downloadWhole(downloadUrl, auth, size)) },
        { key: "refRanges", label: "ref ranges", run: () => measured(refRss, () => downloadRanges(`${refBase}/file`, {}, size)) },
        { key: "nginxRanges", label: "nginx ranges", run: nginx && (() => downloadRanges(`${nginx.base}/file.bin`, {}, size)), skipped: na },
        { key: "appRanges", label: "app ranges", run: () => measured(appRss, () => downloadRanges(downloadUrl, auth, size)) },
        { key: "refConcurrent", label: "ref concurrent", run: () => measured(refRss, () => downloadConcurrent(`${refBase}/file`, {}, size, concurrent)) },
        { key: "appConcurrent", label: "app concurrent", run: () => measured(appRss, () => downloadConcurrent(downloadUrl, auth, size, concurrent)) },
      ]),
    );
    figures.downloads = d;
    const v = (r) => (r?.mibps ?? r);
    report.ratio(`download ${config.sizeMb} MiB whole`, "MiB/s", v(d.appWhole), v(d.refWhole), "node", 0.9);
    report.ratio(`download ${config.sizeMb} MiB whole vs nginx`, "MiB/s", v(d.appWhole), v(d.nginxWhole), "nginx");
    report.ratio(`download ${config.sizeMb} MiB, 4 ranges`, "MiB/s", v(d.appRanges), v(d.refRanges), "node", 0.9);
    report.ratio(`download ${config.sizeMb} MiB, 4 ranges vs nginx`, "MiB/s", v(d.appRanges), v(d.nginxRanges), "nginx");
    report.below("RSS growth, download whole", "MB", mb(d.appWhole), mb(d.refWhole), "node", 64, "< 64 MB");
    report.below("RSS growth, download 4 ranges", "MB", mb(d.appRanges), mb(d.refRanges), "node", 64, "< 64 MB");
    const concurrentLabel = `${concurrent.clients} concurrent downloads of ${concurrent.sliceBytes / MiB} MiB`;
    report.ratio(`${concurrentLabel}, aggregate`, "MiB/s", v(d.appConcurrent), v(d.refConcurrent), "node", 0.7);
    report.below(`RSS growth, ${concurrentLabel}`, "MB", mb(d.appConcurrent), mb(d.refConcurrent), "node", 128, "< 128 MB");
    if (d.appWhole?.mibps) report.check("download Content-Length header", d.appWhole.contentLength && d.appRanges?.contentLength !== false);
  }

  // ---- uploads ----
  if (only.has("uploads")) {
    const u = {};
    const target = { folderId: seeded.rootId, file: source, size };
    // Warm-up with 16 MiB through every path: route code loaded, blob folders created, and the
    // MD5 worker thread the blob store starts for content of 8 MiB or more (lib/storage/md5.ts)
    // started, so a one-time start is not counted as the growth of a transfer.
    const warmSize = Math.min(size, 16 * MiB);
    const warmFile = path.join(tmp, "warm.bin");
    writeFileSync(warmFile, randomBytes(warmSize));
    const warmTarget = { folderId: seeded.smallFolderId, file: warmFile, size: warmSize };
    u.warmup = await attempt("upload warm-up", async () => {
      await putFile(`${refBase}/upload/warm.bin`, warmFile, warmSize);
      if (nginx) await putFile(`${nginx.base}/upload/warm.bin`, warmFile, warmSize);
      await uploadMultipart(base, token, { ...warmTarget, name: "warm-multipart.bin" });
      await uploadChunked(base, token, { ...warmTarget, name: "warm-chunked.bin" });
      await uploadTus(base, token, { ...warmTarget, name: "warm-tus.bin" });
      return { ok: true };
    });
    log(`upload ${config.sizeMb} MiB: bare node PUT, nginx PUT, multipart, chunked, tus`);
    const nginxUploads = path.join(tmp, "nginx", "www", "upload");
    // BENCH_UPLOADS=multipart,chunked,tus limits the upload paths (profiling one of them).
    const uploadWanted = (k) => !process.env.BENCH_UPLOADS || process.env.BENCH_UPLOADS.split(",").includes(k);
    const skippedUpload = { na: "left out by BENCH_UPLOADS" };
    Object.assign(
      u,
      await inRounds(config.rounds, [
        {
          key: "refPut",
          label: "ref PUT",
          run: async () => {
            const r = await measured(refRss, () => putFile(`${refBase}/upload/put.bin`, source, size));
            rmSync(path.join(refUploads, "put.bin"), { force: true });
            return r;
          },
        },
        {
          key: "nginxPut",
          label: "nginx PUT",
          run: nginx && (async () => {
            const r = await putFile(`${nginx.base}/upload/put.bin`, source, size);
            rmSync(path.join(nginxUploads, "put.bin"), { force: true });
            return r;
          }),
          skipped: na,
        },
        { key: "multipart", label: "multipart upload", run: uploadWanted("multipart") && (() => measured(appRss, () => uploadMultipart(base, token, { ...target, name: "upload-multipart.bin" }))), skipped: skippedUpload },
        { key: "chunked", label: "chunked upload", run: uploadWanted("chunked") && (() => measured(appRss, () => uploadChunked(base, token, { ...target, name: "upload-chunked.bin" }))), skipped: skippedUpload },
        { key: "tus", label: "tus upload", run: uploadWanted("tus") && (() => measured(appRss, () => uploadTus(base, token, { ...target, name: "upload-tus.bin" }))), skipped: skippedUpload },
      ], {
        // Each upload starts with the disk's write-back done: otherwise the gigabytes the previous
        // one left dirty are written during the next, whichever it is (runs of one path varied 3x).
        beforeEach: () => execFileSync("sync"),
      }),
    );
    figures.uploads = u;
    const v = (r) => (r?.mibps ?? r);
    // Issue 26: whole uploads at 0.9x, chunked (a durable answer per 16 MiB) at 0.7x, of a bare PUT with MD5 and fsync.
    for (const [key, label, target] of [["multipart", "multipart", 0.9], ["chunked", "chunked 16 MiB", 0.7], ["tus", "tus", 0.9]]) {
      report.ratio(`upload ${config.sizeMb} MiB ${label}`, "MiB/s", v(u[key]), v(u.refPut), "node PUT", target);
      report.ratio(`upload ${config.sizeMb} MiB ${label} vs nginx`, "MiB/s", v(u[key]), v(u.nginxPut), "nginx PUT");
    }
    for (const [key, label] of [["multipart", "multipart"], ["chunked", "chunked"], ["tus", "tus"]]) {
      report.below(`RSS growth, upload ${label}`, "MB", mb(u[key]), mb(u.refPut), "node", 64, "< 64 MB");
    }
    // Byte identity: the hash the server answers, and the stored blobs re-read from disk.
    log("verifying uploaded content (MD5)");
    for (const key of ["multipart", "chunked", "tus"]) {
      const answered = u[key]?.file?.hash;
      report.check(`MD5 answered by ${key} upload = source`, answered ? answered === sourceMd5 : null, answered ? (answered === sourceMd5 ? "yes" : `no (${answered})`) : "n/a");
    }
    const stored = blobsOfSize(dataDir, size).filter((f) => !f.endsWith(download.id));
    const hashes = [];
    for (const f of stored) hashes.push(await md5File(f));
    u.storedBlobs = hashes.length;
    const okUploads = ["multipart", "chunked", "tus"].reduce((n, k) => n + (u[k]?.runs ?? []).filter((r) => typeof r === "number").length, 0);
    report.check(
      `stored blobs of ${config.sizeMb} MiB re-read from disk = source`,
      okUploads === 0 ? null : hashes.length === okUploads && hashes.every((h) => h === sourceMd5),
      `${hashes.filter((h) => h === sourceMd5).length}/${okUploads} match`,
    );
  }

  // ---- metadata ----
  if (only.has("metadata")) {
    const pageOffset = Math.floor(config.bigFiles / 2);
    const endpoints = [
      // The framework's floor: no token, no query (configuration cached), a small JSON answer.
      { key: "floor", label: "GET /publicconfig (no token, no query: framework floor)", path: "/api/publicconfig", info: true },
      { key: "account", label: "GET /account", path: "/api/account", expect: (b) => b?.login === user.login },
      {
        key: "page",
        label: `30-item page of ${config.bigFiles} files (offset ${pageOffset})`,
        path: `/api/folder/${seeded.bigFolderId}?offset_start=${pageOffset}&nb_objects=30&light=1`,
        target: 20,
        expect: (b) => b?.content?.files?.length === 30 && b.content.files[0].name === nthDocName(pageOffset),
      },
      {
        key: "firstPage",
        label: `first 30-item page of ${config.bigFiles} files`,
        path: `/api/folder/${seeded.bigFolderId}?offset_start=0&nb_objects=30&light=1`,
        latencyOnly: true,
        expect: (b) => b?.content?.files?.length === 30 && b.content_total === config.bigFiles,
      },
      {
        key: "search",
        label: `name search over ${seeded.seededFiles} files`,
        path: `/api/folder/${seeded.rootId}?recursive=1&search_label=${seeded.searchLabel}&global=1`,
        target: 150,
        expect: (b) => b?.files?.length === seeded.searchHits,
      },
      {
        key: "tagSearch",
        label: `tag search, 2 tags (${seeded.tagHits} hits; ${seeded.taggedFiles} of ${seeded.seededFiles} files tagged)`,
        path: `/api/folder/${seeded.rootId}?recursive=1&global=1&tags=${seeded.tagIds.join(",")}`,
        target: 50,
        expect: (b) => b?.files?.length === seeded.tagHits,
      },
      { key: "versions", label: "version list (20 versions)", path: `/api/file/${seeded.versionedVersionId}/versions`, expect: (b) => Array.isArray(b) && b.length === 20 },
    ];
    // Each answer is checked once: a fast wrong answer must not pass for a fast right one.
    const wrong = [];
    for (const e of endpoints.filter((x) => x.expect)) {
      for (const [who, b] of databaseUrl ? [["Coffre", base], ["reference", refBase]] : [["Coffre", base]]) {
        const res = await attempt(`check ${e.key}`, () => request(`${b}${e.path}`, { headers: auth }));
        if (res.error || res.status !== 200 || !e.expect(json(res))) wrong.push(`${who} ${e.key} (${res.error ?? `HTTP ${res.status}: ${String(res.text).slice(0, 120)}`})`);
      }
    }
    report.check("metadata answers as seeded (page items, search hits, versions)", wrong.length === 0, wrong.length ? `no: ${wrong.join("; ")}` : "yes");
    const m = {};
    // BENCH_ENDPOINTS=account,page,firstPage,search,versions limits the metadata scenarios (profiling).
    const wanted = process.env.BENCH_ENDPOINTS ? new Set(process.env.BENCH_ENDPOINTS.split(",")) : null;
    for (const e of endpoints.filter((x) => !wanted || wanted.has(x.key))) {
      log(`metadata: ${e.label}`);
      const seq = (b) => () => sequentialLatency(`${b}${e.path}`, auth, { warmup: config.warmup, count: config.sequential });
      const load = (b) => () => throughput(`${b}${e.path}`, auth, { connections: config.connections, seconds: config.seconds, pid: b === base ? app.pid : ref.pid });
      const noRef = { na: "PGlite" };
      const { appSeq, refSeq } = await inRounds(config.rounds, [
        { key: "appSeq", label: `${e.key} latency`, run: seq(base), metric: "median" },
        { key: "refSeq", label: `${e.key} reference latency`, run: databaseUrl && seq(refBase), metric: "median", skipped: noRef },
      ]);
      let appLoad = null;
      let refLoad = null;
      if (!e.latencyOnly) {
        ({ appLoad, refLoad } = await inRounds(config.rounds, [
          { key: "appLoad", label: `${e.key} rps`, run: !appSeq.error && load(base), metric: "rps", skipped: appSeq },
          { key: "refLoad", label: `${e.key} reference rps`, run: databaseUrl && !refSeq?.error && load(refBase), metric: "rps", skipped: refSeq },
        ]));
      }
      m[e.key] = { path: e.path, app: { sequential: appSeq, load: appLoad }, reference: { sequential: refSeq, load: refLoad } };
      const med = (r) => (r?.median ?? r);
      const p99 = (r) => (r?.p99 ?? r);
      report.below(`${e.label}, median 1 client`, "ms", med(appSeq), med(refSeq), "node+pg", e.target);
      report.below(`${e.label}, p99 1 client`, "ms", p99(appSeq), p99(refSeq), "node+pg", undefined);
      if (!e.latencyOnly) {
        report.ratio(`${e.label}, ${config.connections} clients`, "req/s", appLoad?.rps ?? appLoad, refLoad?.rps ?? refLoad, "node+pg", e.info ? undefined : 0.5);
        report.below(`${e.label}, server CPU per request`, "ms", appLoad?.cpuMsPerRequest ?? appLoad, refLoad?.cpuMsPerRequest ?? refLoad, "node+pg", undefined);
        if (appLoad?.non2xx || appLoad?.errors) report.note(`${e.label}: ${appLoad.non2xx} non-2xx answers and ${appLoad.errors} errors under load`);
      }
    }
    figures.metadata = m;

    // What server.ts costs the requests it hands to Next (issue 12: under 5%): the same build
    // under plain `next start`, beside it on the same database (PostgreSQL only: PGlite allows
    // one process per data folder).
    if (databaseUrl && (!wanted || wanted.has("account"))) {
      log("metadata: GET /account through server.ts and through plain next start");
      const plainPort = await freePort();
      const plain = await attempt("plain next start", () => startApp({ ...appEnv, port: plainPort, logFile: path.join(tmp, "next-plain.log"), plainNext: true }));
      if (plain.error) report.note(`plain next start failed: ${plain.error}`);
      else {
        cleanups.push(() => stopProcess(plain));
        const plainBase = `http://127.0.0.1:${plainPort}`;
        const rps = (b, pid) => () => throughput(`${b}/api/account`, auth, { connections: config.connections, seconds: config.seconds, pid });
        const { viaServer, viaNext } = await inRounds(config.rounds, [
          { key: "viaServer", label: "account rps through server.ts", run: rps(base, app.pid), metric: "rps" },
          { key: "viaNext", label: "account rps through next start", run: rps(plainBase, plain.pid), metric: "rps" },
        ]);
        m.serverCost = { viaServer, viaNext };
        report.ratio(`GET /account through server.ts vs plain next start, ${config.connections} clients`, "req/s", viaServer?.rps ?? viaServer, viaNext?.rps ?? viaNext, "next start", 0.95);
        await stopProcess(plain);
      }
    }
  }

  // ---- link analytics (issue 30) ----
  if (only.has("engagement")) await benchEngagement({ base, auth, seeded: seeded.engagement, config, report, figures });

  // ---- 200 small uploads ----
  if (only.has("small")) {
    log(`${config.smallCount} uploads of ${config.smallBytes / 1024} KiB from ${config.smallConcurrency} clients`);
    const payload = randomBytes(config.smallBytes);
    const s = {};
    const refAgent = newSmallAgent(config.smallConcurrency);
    const appAgent = newSmallAgent(config.smallConcurrency);
    // Two per client first, on both sides and not counted: the measured 200 then run on code the JIT
    // has compiled (the app's upload path is otherwise cold: its first requests ran interpreted).
    const sendRef = (i) =>
      request(`${refBase}/upload/small-${i}.bin`, { method: "PUT", headers: { "Content-Type": "application/octet-stream", "Content-Length": payload.length }, body: payload, agent: refAgent });
    const sendApp = (i) => {
      const body = multipartBody({ folderId: seeded.smallFolderId }, { name: `small-${i}.bin`, buffer: payload });
      return request(`${base}/api/file/upload`, { method: "POST", headers: { ...auth, "Content-Type": body.contentType, "Content-Length": body.length }, body: body.stream, agent: appAgent });
    };
    const warmups = 2 * config.smallConcurrency;
    await attempt("small warm-up", () => manySmall(warmups, config.smallConcurrency, (i) => sendRef(config.smallCount + i)));
    await attempt("small warm-up", () => manySmall(warmups, config.smallConcurrency, (i) => sendApp(config.smallCount + i)));
    s.reference = await attempt("small ref", () => manySmall(config.smallCount, config.smallConcurrency, sendRef));
    s.app = await attempt("small app", () => measured(appRss, () => manySmall(config.smallCount, config.smallConcurrency, sendApp)));
    figures.small = s;
    report.ratio(`${config.smallCount} uploads of 64 KiB, ${config.smallConcurrency} clients`, "uploads/s", s.app?.perSecond ?? s.app, s.reference?.perSecond ?? s.reference, "node PUT");
    // Issue 12: twice the 91 uploads/s measured before the server in front of Next.
    report.check(`${config.smallCount} small uploads at >= 182/s (2x the 91/s before issue 12)`, typeof s.app?.perSecond === "number" ? s.app.perSecond >= 182 : null, typeof s.app?.perSecond === "number" ? `${s.app.perSecond.toFixed(0)}/s` : "n/a");
    report.below(`${config.smallCount} uploads of 64 KiB, total time`, "ms", s.app?.ms ?? s.app, s.reference?.ms ?? s.reference, "node PUT", undefined);
    report.check(`${config.smallCount} small uploads without error`, s.app?.errors === undefined ? null : s.app.errors === 0, s.app?.errors === undefined ? "n/a" : `${s.app.errors} errors ${JSON.stringify(s.app.statuses)}`);
  }

  // ---- STORAGE=s3 and WebDAV (issue 18) ----
  if (only.has("dav")) {
    // The listing (issue 26) before this section's PUTs, which leave the disk writing back for a while.
    await benchDavListing({ base, token, folder: seeded.davFolder, pid: app.pid, report, figures });
    await benchDav({ base, refBase, token, source, size, rounds: config.rounds, report, figures });
  }
  if (only.has("s3")) await benchS3({ root, tmp, source, size, databaseUrl, admin, user, rounds: config.rounds, report, figures });

  // ---- soak: many clients, a realistic mix, then two processes with one killed (issue 26) ----
  if (only.has("soak")) {
    const seed = { ...seeded, bigFolderFiles: config.bigFiles, filesPerFolder: config.filesPerFolder, tinySize: tiny.size };
    const soak = await attempt("soak", () => runSoak({ tmp, base, app, appEnv, databaseUrl, admin, user, seeded: seed, size, report, figures }));
    if (soak?.error) report.note(`soak failed: ${soak.error}`);
  }

  figures.appRssEnd = appRss.now();
  figures.appLogTail = tail(appLog, 40);
  figures.finishedAt = new Date().toISOString();
  figures.sourceMd5 = sourceMd5;
  report.note(`${config.driver}; ${config.sizeMb} MiB transfers; ${seeded.seededFiles} seeded files (seed ${round(seeded.ms / 1000)} s); Node ${process.version}, ${os.cpus().length} CPUs; references: bare node:http (bench/reference-server.mjs)${nginx ? ", nginx" : ""}.`);
  if (quick) report.note("BENCH_QUICK=1: small sizes, fewer requests, smaller seeds: targets are indicative only.");

  if (cpuProfDir) {
    await stopProcess(app);
    log(`CPU profiles of the server written to ${cpuProfDir}`);
  }
  process.stdout.write("\n");
  report.print();
  const file = report.write(path.join(root, "bench", "results"), figures);
  log(`figures written to ${path.relative(root, file)} and bench/results/latest.json`);
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  exitCode = 1;
  log(`FAILED: ${error.stack ?? error}`);
} finally {
  await cleanup();
}
process.exit(exitCode);
