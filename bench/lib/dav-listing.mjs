// The WebDAV listing row of npm run bench (issue 26, item 6): PROPFIND Depth: 1 of a seeded folder
// of 10,000 files, each answer read to its end, while /api/health is asked every 20 ms: a listing
// must be fast, and must not hold the server (event loop or database) for anyone else meanwhile.
// No reference: the bare node server has no WebDAV, and the target is absolute.
import http from "node:http";
import { cpuMs, processTree } from "./memory.mjs";
import { request } from "./http-client.mjs";
import { attempt, log, percentile, sleep } from "./util.mjs";

const ALLPROP = '<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>';
// The server's own spelling of a member (lib/server/dav/dav-response.ts); it overlaps no prefix of itself,
// so counting across chunk boundaries only needs the last needle-length-minus-one bytes carried over.
const NEEDLE = Buffer.from("<D:response>");
const HEALTH_EVERY_MS = 20;

/**
 * One PROPFIND, the 207 streamed to its end and its <D:response> elements counted as they come.
 * `ms` is the time to the last byte, `firstByteMs` to the status line.
 */
function propfind(url, token) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const headers = { Authorization: `Bearer ${token}`, Depth: "1", "Content-Type": "application/xml; charset=utf-8", "Content-Length": Buffer.byteLength(ALLPROP) };
    const req = http.request(url, { method: "PROPFIND", headers, agent: false }, (res) => {
      const firstByteMs = performance.now() - started;
      let bytes = 0;
      let responses = 0;
      let carry = Buffer.alloc(0);
      let head = "";
      res.on("data", (chunk) => {
        bytes += chunk.length;
        if (head.length < 300) head += chunk.toString("utf8", 0, 300);
        const buf = carry.length ? Buffer.concat([carry, chunk]) : chunk;
        for (let i = buf.indexOf(NEEDLE); i !== -1; i = buf.indexOf(NEEDLE, i + NEEDLE.length)) responses++;
        carry = buf.subarray(Math.max(0, buf.length - (NEEDLE.length - 1)));
      });
      res.on("end", () => resolve({ status: res.statusCode, ms: performance.now() - started, firstByteMs, bytes, responses, head: head.slice(0, 300) }));
      res.on("error", reject);
      res.on("close", () => {
        if (!res.complete) reject(new Error("PROPFIND answer cut before its end"));
      });
    });
    req.on("error", reject);
    req.end(ALLPROP);
  });
}

/** GET /api/health on one kept-alive connection, started every `everyMs` (or as soon as the previous answer if slower), until stopped. */
function pollHealth(url, everyMs) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times = [];
  const failures = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      try {
        const res = await request(url, { agent });
        times.push(res.ms);
        if (res.status !== 200) failures.push(`HTTP ${res.status} ${String(res.text).slice(0, 100)}`);
      } catch (error) {
        failures.push(error.message);
      }
      const wait = everyMs - (performance.now() - started);
      if (wait > 0 && !stopped) await sleep(wait);
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    agent.destroy();
    const sorted = [...times].sort((a, b) => a - b);
    return { samples: sorted.length, over100ms: sorted.filter((ms) => ms >= 100).length, failures: failures.length, failureKinds: [...new Set(failures)].slice(0, 5), median: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? null };
  };
}

/**
 * `runs` listings of `folder` ({name, files}) at /dav/Private/<name>/ after one warm-up (the route's
 * code and the rows' pages loaded), /api/health polled during the measured ones only.
 */
export async function benchDavListing({ base, token, folder, pid, runs = 5, report, figures }) {
  const url = `${base}/dav/Private/${encodeURIComponent(folder.name)}/`;
  const expected = folder.files + 1;
  const label = `PROPFIND Depth: 1 of ${folder.files.toLocaleString("en")} items (allprop, whole 207 read)`;
  const r = { url, expectedResponses: expected, warmup: null, runs: [] };
  const listing = async () => {
    const pids = pid ? processTree(pid) : [];
    const before = cpuMs(pids);
    const res = await propfind(url, token);
    const out = { ...res, serverCpuMs: pid ? cpuMs(pids) - before : null };
    if (res.status !== 207) throw new Error(`PROPFIND ${url}: HTTP ${res.status} ${res.head}`);
    delete out.head;
    return out;
  };
  log(`WebDAV: ${label}, 1 warm-up then ${runs}, /api/health every ${HEALTH_EVERY_MS} ms meanwhile`);
  r.warmup = await attempt("dav listing warm-up", listing);
  // The same polling for a second with nothing else asked: what the machine's own load gives.
  const stopIdle = pollHealth(`${base}/api/health`, HEALTH_EVERY_MS);
  await sleep(1000);
  r.healthIdle = await stopIdle();
  const stopHealth = pollHealth(`${base}/api/health`, HEALTH_EVERY_MS);
  for (let i = 0; i < runs; i++) r.runs.push(await attempt(`dav listing ${i + 1}/${runs}`, listing));
  r.health = await stopHealth();

  const ok = r.runs.filter((x) => typeof x.ms === "number");
  const sorted = ok.map((x) => x.ms).sort((a, b) => a - b);
  const failed = r.runs.find((x) => x.error);
  r.median = sorted.length ? percentile(sorted, 50) : { error: failed?.error ?? "no listing" };
  r.max = sorted.length ? sorted.at(-1) : r.median;
  figures.davListing = r;

  const whole = ok.filter((x) => x.responses === expected).length;
  report.check(`${label}: ${expected.toLocaleString("en")} <D:response> in every answer`, r.runs.length ? whole === r.runs.length : null, `${whole}/${r.runs.length} (${ok.map((x) => x.responses).join(", ") || "none answered"})`);
  report.below(`${label}, median of ${runs}`, "ms", r.median, undefined, "", 1000, "< 1 s");
  report.below(`${label}, max of ${runs}`, "ms", r.max, undefined, "", undefined);
  const h = r.health;
  const figure = (v) => (h.samples ? v : { error: "no /api/health answer during the listings" });
  report.below(`/api/health every ${HEALTH_EVERY_MS} ms during those listings, median`, "ms", figure(h.median), undefined, "", undefined);
  report.below(`/api/health during those listings, p99`, "ms", figure(h.p99), undefined, "", 100);
  report.below(`/api/health during those listings, max`, "ms", figure(h.max), undefined, "", undefined);
  const idle = r.healthIdle;
  const ms = (v) => (typeof v === "number" ? v.toFixed(1) : "n/a");
  report.text(
    "/api/health answers during those listings; idle for 1 s before them (the machine's own noise)",
    `${h.samples} (${h.over100ms} of 100 ms or more); idle: ${idle.samples}, median ${ms(idle.median)}, p99 ${ms(idle.p99)}, max ${ms(idle.max)} ms`,
  );
  if (h.failures) report.note(`/api/health during the PROPFIND listings: ${h.failures} failures (${h.failureKinds.join("; ")})`);
}
