// The scaling mode (BENCH_SCALE=1): one database grown to each size in turn (BENCH_SCALE_SIZES,
// default 100,000, 1,000,000, 10,000,000 files), the app started on it, and per size one table of
// the costs that must stay flat or logarithmic (issue 20). PostgreSQL only (DATABASE_URL).
import { execFileSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createBenchDatabase, openSeedClient } from "./database.mjs";
import { expectStatus, json, multipartBody, request } from "./http-client.mjs";
import { measureOcr } from "./ocr-throughput.mjs";
import { sequentialLatency, throughput } from "./load.mjs";
import { startApp, stopProcess } from "./servers.mjs";
import { growTo, seedPopulation } from "./seed-scale.mjs";
import { attempt, freePort, log, round, sleep } from "./util.mjs";

const sizes = (process.env.BENCH_SCALE_SIZES ?? "100000,1000000,10000000").split(",").map(Number);
const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 5);
const sequential = { warmup: 10, count: 200, maxMs: 15_000 };
// Targets at 10,000,000 files (issue 20), in ms at the median; content search: 150 ms up to
// 1,000,000 files, 10% of them office documents and 5% OCR'd scans (issue 33, seed-texts.mjs).
const targets = { page: 20, nameSearch: 150, contentSearch: 300, statsMain: 200, stats: 200, quota: 10, rights: 5, move: 1000, emptyTrash: 1000, deleteUser: 1000 };
const targetOf = (key, size) => (key === "contentSearch" && size <= 1_000_000 ? 150 : targets[key]);
const READ_KEYS = ["page", "nameSearch", "contentSearch", "contentPhrase", "contentFrench", "tagSearch", "statsMain", "stats", "quota", "rights", "trashList"];

/** `script STOP|CONT scale` around the measurements, when BENCH_PAUSE_SCRIPT names one (other helpers of the machine). */
function pauseOthers(action) {
  const script = process.env.BENCH_PAUSE_SCRIPT;
  if (!script) return;
  try {
    execFileSync(script, [action, "scale"], { stdio: "ignore", timeout: 30_000 });
  } catch (error) {
    log(`pause script ${action}: ${error.message}`);
  }
}

async function signIn(base, user, password) {
  const res = await request(`${base}/api/auth`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ user, password }) });
  expectStatus(res, 200, `sign-in as ${user}`);
  return json(res).token;
}

/** Time of one request (the bulk operations), checking its status. */
async function timed(url, { method, token, body, ok }) {
  const headers = { Authorization: `Bearer ${token}` };
  if (body) headers["Content-Type"] = "application/json";
  const res = await request(url, { method, headers, body: body && JSON.stringify(body) });
  expectStatus(res, ok, `${method} ${url}`);
  return res.ms;
}

/** Polls `check` (true when the background work is over) every 200 ms; ms from `since`, or null after `limitMs`. */
async function until(check, since, limitMs = 20 * 60_000) {
  for (;;) {
    if (await check()) return performance.now() - since;
    if (performance.now() - since > limitMs) return null;
    await sleep(200);
  }
}

export async function runScale({ root, cleanups }) {
  if (!process.env.DATABASE_URL) throw new Error("BENCH_SCALE=1 needs DATABASE_URL (PostgreSQL)");
  const figures = { mode: "scale", sizes, startedAt: new Date().toISOString(), node: process.version, cpus: os.cpus().length, results: [] };
  const tmp = mkdtempSync(path.join(os.tmpdir(), "coffre-scale-"));
  cleanups.push(async () => rmSync(tmp, { recursive: true, force: true }));
  const dataDir = path.join(tmp, "data");
  mkdirSync(dataDir, { recursive: true });
  const bench = await createBenchDatabase(process.env.DATABASE_URL);
  cleanups.push(async () => (process.env.BENCH_KEEP === "1" ? log(`kept ${bench.url}`) : bench.drop()));
  figures.database = bench.name;

  const admin = { login: "benchadmin", password: `Adm-${randomBytes(9).toString("hex")}-7a` };
  const user = { login: "bench", password: `Usr-${randomBytes(9).toString("hex")}-7a` };
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const appEnv = { root, port, dataDir, databaseUrl: bench.url, admin, logFile: path.join(tmp, "app.log") };

  log("first start: migrations, administrator, bench user");
  let app = await startApp(appEnv);
  cleanups.push(() => stopProcess(app));
  const adminToken = await signIn(base, admin.login, admin.password);
  const created = await request(`${base}/api/user`, {
    method: "POST",
    headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ login: user.login, password: user.password, role: 2, firstname: "Bench", lastname: "User" }),
  });
  expectStatus(created, 201, "create the bench user");
  await stopProcess(app);

  const content = Buffer.from("coffre scale\n");
  const tiny = { id: randomUUID(), size: content.length, md5: createHash("md5").update(content).digest("hex") };
  const blobDir = path.join(dataDir, "blobs", tiny.id.slice(0, 2), tiny.id.slice(2, 4));
  mkdirSync(blobDir, { recursive: true });
  writeFileSync(path.join(blobDir, tiny.id), content);

  const db = await openSeedClient({ databaseUrl: bench.url });
  cleanups.push(() => db.close());
  const population = await seedPopulation(db, { login: user.login, tiny });
  const fixtures = {};
  cleanups.push(async () => pauseOthers("CONT"));

  for (const size of sizes) {
    log(`growing to ${size} files`);
    const grown = await growTo(db, population, { size, tiny, fixtures });
    const [{ bytes }] = await db.query(`SELECT pg_database_size(current_database()) AS bytes`);
    const row = { size, files: grown.files, seedMs: grown.ms, dbBytes: Number(bytes), bytesPerFile: Number(bytes) / grown.files, fixtures: { ...fixtures }, figures: {} };
    figures.results.push(row);
    log(`${grown.files} files, seeded in ${(grown.ms / 1000).toFixed(0)} s; database ${(Number(bytes) / 2 ** 30).toFixed(2)} GiB`);

    app = await startApp(appEnv);
    const token = await signIn(base, user.login, user.password);
    const rightsToken = await signIn(base, "scale-rights", user.password);
    const trashToken = await signIn(base, `scale-trash-${size}`, user.password);
    const adminTok = await signIn(base, admin.login, admin.password);
    const auth = (t) => ({ Authorization: `Bearer ${t}` });

    // A user's quota figure after an upload.
    const upload = multipartBody({ folderId: population.benchRootId }, { name: `after-${size}.txt`, buffer: content });
    const uploaded = await request(`${base}/api/file/upload`, { method: "POST", headers: { ...auth(token), "Content-Type": upload.contentType, "Content-Length": upload.length }, body: upload.stream });
    expectStatus(uploaded, [200, 201], "upload before the quota");

    const offset = Math.floor(fixtures.F / 2);
    const reads = [
      { key: "page", label: `30-item page of a ${fixtures.F}-file folder at offset ${offset}`, token, path: `/api/folder/${fixtures.pageFolder}?offset_start=${offset}&nb_objects=30&light=1`, check: (b) => b.content?.files?.length === 30 },
      { key: "nameSearch", label: "name search, all the user sees", token, path: `/api/folder/${population.benchRootId}?recursive=1&search_label=quarterly&global=1`, check: (b) => b.files?.length > 0 },
      // Content search with snippets (content_match) on the first 50 files found: a rare word
      // (1 file in 5,000), then the web syntax and French stemming on common words (1,000 found at most).
      { key: "contentSearch", label: "content search", token, path: `/api/folder/${population.benchRootId}?recursive=1&search_label=kiwifruit&global=1&in_content=1`, check: (b) => b.files?.some((f) => f.content_match) },
      { key: "contentPhrase", label: 'content search `"annual report" -draft`', token, path: `/api/folder/${population.benchRootId}?recursive=1&search_label=${encodeURIComponent('"annual report" -draft')}&global=1&in_content=1`, check: () => true },
      { key: "contentFrench", label: "content search `contrat` (French texts: contrats too)", token, path: `/api/folder/${population.benchRootId}?recursive=1&search_label=contrat&global=1&in_content=1`, check: () => true },
      { key: "tagSearch", label: "tag search (2 tags)", token, path: `/api/folder/${population.benchRootId}?recursive=1&global=1&tags=${population.tagIds.join(",")}`, check: () => true },
      { key: "statsMain", label: "/stats?mask=1 (platform storage, admin)", token: adminTok, path: `/api/stats?mask=1`, check: (b) => b.storage?.main?.used > 0 },
      { key: "stats", label: "/stats?mask=127 (every part; first = computed, then cached)", token: adminTok, path: `/api/stats?mask=127`, check: () => true },
      { key: "quota", label: "quota after an upload", token, path: `/api/user/${population.benchId}/quota`, check: (b) => b.used > 0 },
      { key: "rights", label: `folder at depth 20, user in 50 groups`, token: rightsToken, path: `/api/folder/${population.deepFolderId}`, check: (b) => b.id === population.deepFolderId },
      { key: "trashList", label: `trash listing, ${fixtures.F} items`, token: trashToken, path: `/api/trashes`, check: () => true, slow: true },
    ];
    pauseOthers("STOP");
    try {
      for (const r of reads) {
        const url = `${base}${r.path}`;
        row.figures[r.key] = await attempt(r.key, async () => {
          const first = await request(url, { headers: auth(r.token) });
          expectStatus(first, 200, r.label);
          // Answers over 1 MiB are not collected (the trash listing): only their size is kept.
          const body = first.text && first.bytes < 1024 * 1024 ? json(first) : null;
          const checked = body ? r.check(body) : null;
          const hits = body?.files?.length ?? body?.content?.files?.length ?? null;
          const latency = await sequentialLatency(url, auth(r.token), r.slow ? { warmup: 0, count: 5 } : sequential);
          const load = r.slow ? null : await throughput(url, auth(r.token), { connections: 50, seconds, pid: app.pid });
          return { label: r.label, firstMs: first.ms, checked, hits, ...latency, rps: load?.rps ?? null, load };
        });
        log(`${size}: ${r.key} ${JSON.stringify(row.figures[r.key]).slice(0, 160)}`);
      }
      // OCR throughput, once (it does not depend on the size): through the app's own OCR job.
      if (size === sizes[0]) row.figures.ocr = await attempt("ocr", () => measureOcr({ base, token, folderId: population.benchRootId, db }));
    } finally {
      pauseOthers("CONT");
    }

    // Bulk operations: the time to answer, then until their background work is over.
    const moves = [];
    for (let i = 0; i < 2; i++) {
      const current = Number((await db.query(`SELECT parent_id FROM folders WHERE id = $1`, [fixtures.moveFolder]))[0].parent_id);
      const target = current === fixtures.moveDst ? fixtures.moveSrc : fixtures.moveDst;
      moves.push(await attempt("move", () => timed(`${base}/api/folder/${fixtures.moveFolder}`, { method: "PUT", token, body: { parent_id: target }, ok: 200 })));
    }
    row.figures.move = { label: `move a folder of ${fixtures.F} files`, answerMs: moves };
    row.figures.emptyTrash = await attempt("empty trash", async () => {
      const since = performance.now();
      const answerMs = await timed(`${base}/api/trashes`, { method: "DELETE", token: trashToken, ok: [200, 204] });
      const doneMs = await until(async () => Number((await db.query(`SELECT count(*) AS n FROM files WHERE owner_id = $1`, [fixtures.trashUser.id]))[0].n) === 0, since);
      return { label: `empty a trash of ${fixtures.F} items`, answerMs, doneMs };
    });
    row.figures.deleteUser = await attempt("delete user", async () => {
      const since = performance.now();
      const answerMs = await timed(`${base}/api/user/${fixtures.victim.id}`, { method: "DELETE", token: adminTok, ok: [200, 204] });
      const doneMs = await until(
        async () => Number((await db.query(`SELECT count(*) AS n FROM files WHERE owner_id = $1 AND deleted_at IS NULL`, [fixtures.victim.id]))[0].n) === 0,
        since,
      );
      return { label: `delete a user with ${fixtures.victimFiles} files`, answerMs, doneMs };
    });
    await stopProcess(app);
    printTable(row);
  }
  figures.finishedAt = new Date().toISOString();
  const stamp = figures.startedAt.replace(/[:.]/g, "-");
  const file = path.join(root, "bench", "results", `scale-${stamp}.json`);
  writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
  log(`figures written to ${path.relative(root, file)}`);
}

function printTable(row) {
  const f = row.figures;
  const lines = [`\n## ${row.files.toLocaleString("en")} files (seed ${round(row.seedMs / 1000)} s, ${round(row.bytesPerFile, 0)} bytes of database per file)`];
  lines.push("| scenario | first ms | median ms | p99 ms | req/s (50) | target |", "|---|---|---|---|---|---|");
  for (const key of READ_KEYS) {
    const r = f[key];
    if (!r || r.error) {
      lines.push(`| ${key} | error: ${r?.error ?? "n/a"} | | | | |`);
      continue;
    }
    const target = targetOf(key, row.size);
    const verdict = target ? `< ${target} ${r.median < target ? "met" : "MISSED"}` : "";
    lines.push(`| ${r.label}${r.checked === false ? " (answer check failed)" : ""}${r.hits !== null && key !== "page" ? ` (${r.hits} found)` : ""} | ${round(r.firstMs)} | ${round(r.median)} | ${round(r.p99)} | ${r.rps === null ? "" : round(r.rps, 0)} | ${verdict} |`);
  }
  for (const key of ["move", "emptyTrash", "deleteUser"]) {
    const r = f[key];
    if (!r || r.error) {
      lines.push(`| ${key} | error: ${r?.error ?? "n/a"} | | | | |`);
      continue;
    }
    const answer = Array.isArray(r.answerMs) ? r.answerMs.map((m) => round(m?.error ? NaN : m)).join(", ") : round(r.answerMs);
    lines.push(`| ${r.label}: answer ms${r.doneMs !== undefined ? `, background done ${round(r.doneMs)} ms` : ""} | | ${answer} | | | < ${targets[key]} |`);
  }
  const ocr = f.ocr;
  if (ocr) lines.push(ocr.error ? `| OCR | error: ${ocr.error} | | | | |` : `| ${ocr.label}: ${round(ocr.pagesPerMinute, 1)} pages/min, ${ocr.markersRead}/${ocr.pages} read${ocr.toolMissing ? `, ${ocr.toolMissing} missing` : ""} | | ${round(ocr.ms)} | | | |`);
  process.stdout.write(`${lines.join("\n")}\n`);
}
