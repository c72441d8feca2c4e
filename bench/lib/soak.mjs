// The soak of npm run bench (BENCH_ONLY=soak; issue 26, item 8): BENCH_SOAK_CLIENTS clients (100)
// for BENCH_SOAK_SECONDS (600) doing what the people of a team do, on the seeded tree: pages of the
// big folder and of tree folders, whole downloads of small files and ranges of the big one, name
// searches, uploads of 64 KiB and 3 MiB, link shares opened through their public paths, WebDAV
// listings. Then the same mix against two server processes behind a round-robin proxy, one of them
// killed with SIGKILL a third of the way in and restarted: every acknowledged upload must be there
// afterwards, and the only errors the requests that were in flight on the killed process.
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { expectStatus, json, multipartBody, request } from "./http-client.mjs";
import { processTree, residentBytes } from "./memory.mjs";
import { startRoundRobinProxy } from "./round-robin-proxy.mjs";
import { startApp, stopProcess } from "./servers.mjs";
import { freePort, log, MiB, percentile, round, sleep } from "./util.mjs";

const SMALL_UPLOAD = 64 * 1024;
const MEDIUM_UPLOAD = 3 * MiB;
const RANGE_BYTES = MiB;
const PAGE = 30;

/**
 * The actions a client draws from, by weight: reading outweighs writing, as on a file server.
 * Each action is one or more requests; each request is timed under its own operation name.
 */
const MIX = [
  { weight: 14, run: pageOfBigFolder },
  { weight: 14, run: pageOfTreeFolder },
  { weight: 14, run: downloadSmallFile },
  { weight: 10, run: rangeOfBigFile },
  { weight: 5, run: nameSearch },
  { weight: 8, run: (world, client, run) => upload(world, client, run, SMALL_UPLOAD, "upload: 64 KiB (multipart)") },
  { weight: 1, run: (world, client, run) => upload(world, client, run, MEDIUM_UPLOAD, "upload: 3 MiB (multipart)") },
  { weight: 4, run: shareByLink },
  { weight: 6, run: davListing },
];
const TOTAL_WEIGHT = MIX.reduce((sum, a) => sum + a.weight, 0);

export function soakConfig() {
  const seconds = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
  return {
    seconds,
    clients: Number(process.env.BENCH_SOAK_CLIENTS ?? 100),
    users: Math.max(1, Number(process.env.BENCH_SOAK_USERS ?? 5)),
    // 0 leaves the second part (two processes, one killed) out.
    failoverSeconds: Number(process.env.BENCH_SOAK_FAILOVER_SECONDS ?? seconds),
  };
}

/** Memory and database connections every minute; a run shorter than 10 minutes gets 10 samples. */
const sampleEveryMs = (seconds) => 1000 * Math.min(60, Math.max(5, seconds / 10));

/**
 * Both parts, on the running server `app` (at `base`). `appEnv` starts the second process of the
 * failover part on the same database and DATA_DIR. Figures go to `figures.soak`, rows to `report`.
 */
export async function runSoak({ tmp, base, app, appEnv, databaseUrl, admin, user, seeded, size, report, figures }) {
  const config = soakConfig();
  const soak = { config };
  figures.soak = soak;
  log(`soak: preparing ${config.users} users and ${config.clients} clients`);
  const world = await prepareWorld({ base, admin, user, seeded, size, config });
  soak.users = world.users.map((u) => ({ login: u.login, davPaths: u.davPaths }));
  const pg = databaseUrl ? (await import("postgres")).default(databaseUrl, { max: 1, onnotice: () => {} }) : null;
  try {
    log(`soak: ${config.clients} clients for ${config.seconds} s against one server process`);
    const single = await runMix(world, { part: "single", target: base, seconds: config.seconds, pids: () => [app.pid], pg });
    soak.single = summarize(single);
    reportSingle(report, soak.single, config);

    if (config.failoverSeconds > 0 && !databaseUrl) {
      report.note("soak failover part: two server processes on one database need PostgreSQL (DATABASE_URL); PGlite allows one process per data folder.");
    } else if (config.failoverSeconds > 0) {
      soak.failover = await runFailover(world, { tmp, base, app, appEnv, pg, config });
      reportFailover(report, soak.failover);
    }

    log(`soak: checking the ${world.acknowledged.length} acknowledged uploads (bytes and MD5, through the API)`);
    soak.uploads = await verifyUploads(base, world.acknowledged);
    report.check(
      "soak: every acknowledged upload present with its MD5, both parts",
      soak.uploads.checked > 0 ? soak.uploads.bad.length === 0 : null,
      `${soak.uploads.checked - soak.uploads.bad.length}/${soak.uploads.checked}${soak.uploads.bad.length ? `; ${soak.uploads.bad.slice(0, 3).map((b) => `${b.name}: ${b.reason}`).join("; ")}` : ""}`,
    );
    if (world.unacknowledged.length > 0) {
      soak.cutUploads = await findCutUploads(base, world.unacknowledged);
      const { absent, whole, bad } = soak.cutUploads;
      report.check(
        "soak: uploads without a 2xx either absent or whole",
        bad.length === 0,
        `${world.unacknowledged.length}: ${absent} absent, ${whole} committed whole (answer lost)${bad.length ? `, ${bad.length} wrong: ${bad.slice(0, 3).map((b) => `${b.name}: ${b.reason}`).join("; ")}` : ""}`,
      );
    }
  } finally {
    for (const client of world.clients) client.agent.destroy();
    await pg?.end({ timeout: 5 });
  }
}

// ---- the world: users, their sessions, the ids the mix draws from ---------------------------------

async function signIn(base, login, password) {
  const res = await request(`${base}/api/auth`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ user: login, password }) });
  expectStatus(res, 200, `sign-in as ${login}`);
  return json(res).token;
}

async function api(base, token, method, urlPath, body) {
  const headers = { Authorization: `Bearer ${token}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  return request(`${base}${urlPath}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/**
 * The bench user (owner of the seed) and `config.users - 1` more, created through the API, who see
 * the bench user's space through a read right on its root (a team's shared tree). Each user gets
 * a folder for its uploads; each client its own session (sign-in) and kept-alive connection.
 */
async function prepareWorld({ base, admin, user, seeded, size, config }) {
  const adminToken = await signIn(base, admin.login, admin.password);
  const benchToken = await signIn(base, user.login, user.password);
  const users = [{ login: user.login, password: user.password, rootId: seeded.rootId }];
  for (let i = 1; i < config.users; i++) {
    const extra = { login: `soak-${i}`, password: `Soak-${randomBytes(9).toString("hex")}-7a` };
    const created = expectStatus(
      await api(base, adminToken, "POST", "/api/user", { login: extra.login, password: extra.password, role: 2, firstname: "Soak", lastname: `User ${i}` }),
      201,
      `create ${extra.login}`,
    );
    const id = json(created).id;
    expectStatus(
      await api(base, benchToken, "POST", "/api/right", { folder_id: seeded.rootId, target_id: id, browse: true, read: true, download: true }),
      [200, 201],
      `right for ${extra.login}`,
    );
    const token = await signIn(base, extra.login, extra.password);
    extra.rootId = json(expectStatus(await api(base, token, "GET", "/api/account"), 200, "account")).roots[0];
    users.push(extra);
  }
  for (const u of users) {
    const token = u.login === user.login ? benchToken : await signIn(base, u.login, u.password);
    const folder = expectStatus(await api(base, token, "POST", "/api/folder", { name: "soak-uploads", parent_id: u.rootId }), [200, 201], `upload folder of ${u.login}`);
    u.uploadFolderId = json(folder).id;
    u.davPaths = await findDavPaths(base, token);
    // Files this user uploaded and had acknowledged: what its clients share by link.
    u.uploads = [];
  }

  // Small seeded files to download: the ids of a few pages across the big folder.
  const smallFileIds = [];
  for (let i = 0; i < 10; i++) {
    const offset = Math.floor((i / 10) * (seeded.bigFolderFiles - PAGE));
    const page = json(expectStatus(await api(base, benchToken, "GET", `/api/folder/${seeded.bigFolderId}?offset_start=${offset}&nb_objects=${PAGE}&light=1`), 200, "page"));
    smallFileIds.push(...page.content.files.map((f) => f.id));
  }
  const tree = json(expectStatus(await api(base, benchToken, "GET", `/api/folder/${seeded.treeFolderId}?nb_objects=1000&light=1`), 200, "tree"));
  const treeFolderIds = tree.content.folders.map((f) => f.id);
  if (smallFileIds.length === 0 || treeFolderIds.length === 0) throw new Error("soak: the seeded folders came back empty");

  const clients = [];
  for (let index = 0; index < config.clients; index++) {
    const owner = users[index % users.length];
    clients.push({ index, user: owner, auth: { Authorization: `Bearer ${await signIn(base, owner.login, owner.password)}` }, agent: null, sent: 0 });
  }
  return {
    users,
    clients,
    seeded,
    bigFileSize: size,
    smallFileIds,
    treeFolderIds,
    // Upload contents are slices of one random pool, so no upload costs the bench a fresh buffer.
    pool: randomBytes(8 * MiB),
    acknowledged: [],
    // Uploads that got no 2xx (cut by the kill): each must be absent, or present and whole.
    unacknowledged: [],
  };
}

/** The caller's private space (the first collection of /dav/) and, where it holds the seed, its tree. */
async function findDavPaths(base, token) {
  const res = await request(`${base}/dav/`, { method: "PROPFIND", headers: { Authorization: `Bearer ${token}`, Depth: "1" } });
  expectStatus(res, 207, "PROPFIND /dav/");
  const spaces = [...res.text.matchAll(/<(?:\w+:)?href>([^<]+)<\/(?:\w+:)?href>/g)].map((m) => m[1]).filter((href) => href !== "/dav/");
  const paths = [];
  for (const space of spaces) {
    const tree = await request(`${base}${space}bench-tree/`, { method: "PROPFIND", headers: { Authorization: `Bearer ${token}`, Depth: "0" } });
    if (tree.status === 207) paths.push(`${space}bench-tree/`, `${space}bench-tree/dir-00001/`);
  }
  if (spaces[0]) paths.push(spaces[0]);
  return paths;
}

// ---- one run of the mix ------------------------------------------------------------------------------

/**
 * Every client draws an action, runs it, and draws the next, until `seconds` are over (the last
 * actions finish). `during` runs beside the clients (the failover part's kill). The resident memory
 * of the server processes (`pids()`) and the database's connections are sampled along.
 */
async function runMix(world, { part, target, seconds, pids, pg, during }) {
  const sampleMs = sampleEveryMs(seconds);
  const run = { part, target, ops: new Map(), errors: [], answered: 0, samples: [], sampleMs, startedAt: performance.now() };
  for (const client of world.clients) {
    client.agent?.destroy();
    client.agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  }
  const sample = async () => {
    const rssMb = pids().map((pid) => (pid ? round(residentBytes(processTree(pid)) / MiB, 0) : null));
    const db = pg ? await countConnections(pg).catch((error) => ({ error: error.message })) : null;
    run.samples.push({ s: round((performance.now() - run.startedAt) / 1000, 0), rssMb, connections: db?.total ?? null, activeConnections: db?.active ?? null, answered: run.answered, errors: run.errors.length });
  };
  await sample();
  const cpuBefore = process.cpuUsage();
  const timer = setInterval(sample, sampleMs);
  const stopAt = run.startedAt + seconds * 1000;
  const loop = async (client) => {
    while (performance.now() < stopAt) await draw().run(world, client, run);
  };
  try {
    await Promise.all([...world.clients.map(loop), during?.(run)]);
  } finally {
    clearInterval(timer);
  }
  run.seconds = (performance.now() - run.startedAt) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  // The clients (and the proxy) share the machine with the servers: what they took is said.
  run.benchCpuPct = (cpu.user + cpu.system) / 1000 / 10 / run.seconds;
  await sample();
  return run;
}

function draw() {
  let left = Math.random() * TOTAL_WEIGHT;
  for (const action of MIX) {
    left -= action.weight;
    if (left < 0) return action;
  }
  return MIX[0];
}

async function countConnections(pg) {
  const [row] = await pg`
    SELECT count(*)::int AS total, count(*) FILTER (WHERE state = 'active')::int AS active
    FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`;
  return row;
}

function opStats(run, op) {
  if (!run.ops.has(op)) run.ops.set(op, { times: [], status4xx: {}, sample4xx: null, errors: {} });
  return run.ops.get(op);
}

/**
 * One request of operation `op`, named by an `x-soak-id` header (the proxy lists requests by it).
 * Resolves the answer when its status is one of `expect` and `check` finds nothing wrong, null
 * otherwise. A 4xx is counted apart (the contract's answers); a 5xx, a cut connection or a wrong
 * answer is an error.
 */
async function send(run, client, op, { method = "GET", path: urlPath, headers = {}, body, anonymous = false, expect = [200], check, discard = false }) {
  const id = `${run.part}-${client.index}-${++client.sent}`;
  const stats = opStats(run, op);
  let res;
  try {
    res = await request(`${run.target}${urlPath}`, { method, headers: { ...(anonymous ? {} : client.auth), "x-soak-id": id, ...headers }, body, discard, agent: client.agent });
  } catch (error) {
    return fail(run, stats, op, id, error.code ?? error.message);
  }
  run.answered++;
  if (res.status >= 400 && res.status < 500) {
    stats.status4xx[res.status] = (stats.status4xx[res.status] ?? 0) + 1;
    stats.sample4xx ??= `${res.status} ${String(res.text ?? "").slice(0, 160)}`;
    return null;
  }
  if (!expect.includes(res.status)) return fail(run, stats, op, id, `HTTP ${res.status}${res.headers["x-soak-proxy"] ? " from the proxy" : ""}`, res.text);
  const wrong = check?.(res);
  if (wrong) return fail(run, stats, op, id, `wrong answer: ${wrong}`);
  stats.times.push(res.ms);
  return res;
}

function fail(run, stats, op, id, reason, text) {
  stats.errors[reason] = (stats.errors[reason] ?? 0) + 1;
  run.errors.push({ op, id, reason, at: round((performance.now() - run.startedAt) / 1000, 1), body: text ? String(text).slice(0, 200) : undefined });
  return null;
}

const randomInt = (n) => Math.floor(Math.random() * n);
const pick = (list) => list[randomInt(list.length)];
const filesOf = (res, n) => (json(res)?.content?.files?.length === n ? null : `${json(res)?.content?.files?.length} items, not ${n}`);

// ---- the actions ------------------------------------------------------------------------------------

function pageOfBigFolder(world, client, run) {
  const offset = randomInt(world.seeded.bigFolderFiles - PAGE);
  return send(run, client, "list: page of the big folder", {
    path: `/api/folder/${world.seeded.bigFolderId}?offset_start=${offset}&nb_objects=${PAGE}&light=1`,
    check: (res) => filesOf(res, PAGE),
  });
}

function pageOfTreeFolder(world, client, run) {
  const offset = randomInt(world.seeded.filesPerFolder - PAGE);
  return send(run, client, "list: page of a tree folder", {
    path: `/api/folder/${pick(world.treeFolderIds)}?offset_start=${offset}&nb_objects=${PAGE}&light=1`,
    check: (res) => filesOf(res, PAGE),
  });
}

function downloadSmallFile(world, client, run) {
  return send(run, client, "read: small file, whole", {
    path: `/api/file/${pick(world.smallFileIds)}/download`,
    discard: true,
    check: (res) => (res.bytes === world.seeded.tinySize ? null : `${res.bytes} bytes`),
  });
}

function rangeOfBigFile(world, client, run) {
  const length = Math.min(RANGE_BYTES, world.bigFileSize);
  const start = randomInt(world.bigFileSize - length + 1);
  return send(run, client, "read: 1 MiB range of the big file", {
    path: `/api/file/${world.seeded.downloadVersionId}/download`,
    headers: { Range: `bytes=${start}-${start + length - 1}` },
    expect: [206],
    discard: true,
    check: (res) => (res.bytes === length ? null : `${res.bytes} bytes`),
  });
}

function nameSearch(world, client, run) {
  return send(run, client, "search: name, whole tree", {
    path: `/api/folder/${world.seeded.rootId}?recursive=1&search_label=${world.seeded.searchLabel}&global=1`,
    check: (res) => (json(res)?.files?.length === world.seeded.searchHits ? null : `${json(res)?.files?.length} hits, not ${world.seeded.searchHits}`),
  });
}

async function upload(world, client, run, bytes, op) {
  const start = randomInt(world.pool.length - bytes + 1);
  const buffer = world.pool.subarray(start, start + bytes);
  const md5 = createHash("md5").update(buffer).digest("hex");
  const name = `soak-${run.part}-${client.index}-${client.sent + 1}.bin`;
  const body = multipartBody({ folderId: client.user.uploadFolderId }, { name, buffer });
  const res = await send(run, client, op, {
    method: "POST",
    path: "/api/file/upload",
    headers: { "Content-Type": body.contentType, "Content-Length": body.length },
    body: body.stream,
    expect: [200, 201],
    check: (r) => (json(r)?.hash === md5 ? null : `hash ${json(r)?.hash}, sent ${md5}`),
  });
  if (!res) {
    world.unacknowledged.push({ name, size: bytes, md5, auth: client.auth, folderId: client.user.uploadFolderId });
    return;
  }
  const file = { id: json(res).id, name, size: bytes, md5, auth: client.auth };
  world.acknowledged.push(file);
  client.user.uploads.push(file);
}

/**
 * A link share of one of the user's own uploads, as its owner and a visitor use it: create it,
 * open it and its content through the public paths (no token), take a download token, download,
 * delete. A user with nothing uploaded yet uploads instead.
 */
async function shareByLink(world, client, run) {
  if (client.user.uploads.length === 0) return upload(world, client, run, SMALL_UPLOAD, "upload: 64 KiB (multipart)");
  const file = pick(client.user.uploads);
  const created = await send(run, client, "share: create link", {
    method: "POST",
    path: "/api/share",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ roots: [{ id: file.id, entity_type: 1 }] }),
    expect: [201],
    check: (res) => (json(res)?.key ? null : "no key"),
  });
  if (!created) return;
  const { id, key } = json(created);
  const visit = async () => {
    if (!(await send(run, client, "share: open (public)", { path: `/api/share/key/${key}`, anonymous: true }))) return;
    if (!(await send(run, client, "share: content (public)", { path: `/api/share/content/${key}`, anonymous: true }))) return;
    const token = await send(run, client, "share: download token (public)", { method: "POST", path: `/api/token/share/download/${key}`, anonymous: true, check: (res) => (json(res)?.token ? null : "no token") });
    if (!token) return;
    await send(run, client, "share: download (public)", {
      path: `/api/file/download?token=${encodeURIComponent(json(token).token)}`,
      anonymous: true,
      discard: true,
      check: (res) => (res.bytes === file.size ? null : `${res.bytes} bytes, not ${file.size}`),
    });
  };
  await visit();
  await send(run, client, "share: delete link", { method: "DELETE", path: `/api/share/${id}`, expect: [200, 204] });
}

function davListing(world, client, run) {
  return send(run, client, "WebDAV: PROPFIND Depth 1", {
    method: "PROPFIND",
    path: pick(client.user.davPaths),
    headers: { Depth: "1" },
    expect: [207],
    check: (res) => (res.text.includes("multistatus") ? null : "no multistatus"),
  });
}

// ---- the failover part --------------------------------------------------------------------------

/**
 * A second server process on the same database and DATA_DIR, both behind the round-robin proxy;
 * a third of the way in, the second is killed (SIGKILL, the proxy listing its requests in flight
 * at that instant) and started again on its port. Errors are then sorted: requests in flight on
 * the killed process, requests the proxy sent it after its death and before it noticed, others.
 */
async function runFailover(world, { tmp, base, app, appEnv, pg, config }) {
  const portB = await freePort();
  const baseB = `http://127.0.0.1:${portB}`;
  const startB = () => startApp({ ...appEnv, port: portB, logFile: path.join(tmp, "next-b.log") });
  let second = await startB();
  const proxy = await startRoundRobinProxy({ port: await freePort(), backends: [base, baseB] });
  const failover = { seconds: config.failoverSeconds, killAfterSeconds: round(config.failoverSeconds / 3, 0) };
  try {
    log(`soak failover: ${config.clients} clients for ${config.failoverSeconds} s through a round-robin proxy to two processes; SIGKILL to one after ${failover.killAfterSeconds} s`);
    const during = async () => {
      await sleep(failover.killAfterSeconds * 1000);
      const dying = second;
      const exited = new Promise((resolve) => (dying.exited ? resolve() : dying.child.once("exit", resolve)));
      const killedAt = performance.now();
      failover.inFlightAtKill = proxy.kill(1, () => process.kill(-dying.pid, "SIGKILL"));
      log(`soak failover: SIGKILL sent, ${failover.inFlightAtKill.length} requests were in flight on that process`);
      await exited;
      await stopProcess(dying);
      second = null;
      second = await startB();
      failover.restartMs = round(performance.now() - killedAt, 0);
      failover.restartColdStartMs = round(second.coldStartMs, 0);
      while (!proxy.stats().backends[1].up) await sleep(50);
      failover.backInRotationMs = round(performance.now() - killedAt, 0);
      log(`soak failover: restarted, answering ${failover.restartMs} ms after the kill`);
    };
    const run = await runMix(world, { part: "failover", target: proxy.base, seconds: config.failoverSeconds, pids: () => [app.pid, second?.pid], pg, during });
    Object.assign(failover, summarize(run));
    failover.proxy = proxy.stats();
    failover.sorted = sortFailoverErrors(run.errors, failover);
  } finally {
    await proxy.close();
    if (second) await stopProcess(second);
  }
  return failover;
}

/**
 * Sorts the failover part's errors: requests in flight on the process when it was killed; requests
 * the proxy sent it after the kill and before taking it out of the rotation (on a kept-alive
 * connection the dying process had not closed yet, or before the proxy had seen the first reset:
 * also requests sent to the killed process); anything else, which must not happen.
 */
function sortFailoverErrors(errors, failover) {
  const kill = failover.proxy.kills[0];
  const inFlight = new Set((kill?.inFlight ?? []).map((r) => r.id));
  const takenOut = failover.proxy.backends[1].outages.find((o) => kill && o.from >= kill.at)?.from ?? Infinity;
  const proxyFailures = new Map(failover.proxy.failures.map((f) => [f.id, f]));
  const sorted = { inFlightAtKill: inFlight.size, inFlightFailed: 0, sentAfterKill: 0, other: [] };
  for (const e of errors) {
    const seen = proxyFailures.get(e.id);
    if (inFlight.has(e.id)) sorted.inFlightFailed++;
    else if (seen?.backend === 1 && kill && seen.sentAt >= kill.at && seen.sentAt <= takenOut) sorted.sentAfterKill++;
    else sorted.other.push({ ...e, proxy: seen ?? null });
  }
  sorted.takenOutAfterMs = kill && takenOut !== Infinity ? takenOut - kill.at : null;
  return sorted;
}

// ---- after the runs -----------------------------------------------------------------------------

/** Downloads every acknowledged upload through the API (its uploader's session) and compares size and MD5. */
async function verifyUploads(base, files, concurrency = 8) {
  const bad = [];
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++];
      const res = await request(`${base}/api/file/${file.id}/download`, { headers: file.auth, discard: true, md5: true }).catch((error) => ({ error }));
      if (res.error) bad.push({ name: file.name, reason: res.error.message });
      else if (res.status !== 200) bad.push({ name: file.name, reason: `HTTP ${res.status}` });
      else if (res.bytes !== file.size || res.md5 !== file.md5) bad.push({ name: file.name, reason: `${res.bytes} bytes, MD5 ${res.md5}, expected ${file.size} and ${file.md5}` });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { checked: files.length, bytes: files.reduce((sum, f) => sum + f.size, 0), bad };
}

/** Looks each upload that got no 2xx up by name in its folder: absent, or present with all its bytes. */
async function findCutUploads(base, attempts) {
  const result = { absent: 0, whole: 0, bad: [] };
  for (const attempt of attempts) {
    const found = await request(`${base}/api/folder/${attempt.folderId}?recursive=1&search_label=${encodeURIComponent(attempt.name)}`, { headers: attempt.auth });
    const file = json(found)?.files?.find((f) => f.name === attempt.name);
    if (found.status !== 200) result.bad.push({ name: attempt.name, reason: `search: HTTP ${found.status}` });
    else if (!file) result.absent++;
    else {
      const res = await request(`${base}/api/file/${file.id}/download`, { headers: attempt.auth, discard: true, md5: true });
      if (res.status === 200 && res.bytes === attempt.size && res.md5 === attempt.md5) result.whole++;
      else result.bad.push({ name: attempt.name, reason: `HTTP ${res.status}, ${res.bytes} bytes, MD5 ${res.md5}` });
    }
  }
  return result;
}

/** Per operation: answered requests, p50 and p99 of the successful ones, the 4xx by status, the errors by reason. */
function summarize(run) {
  const ops = {};
  let ok = 0;
  let fourxx = 0;
  for (const [op, stats] of [...run.ops].sort(([a], [b]) => a.localeCompare(b))) {
    const times = stats.times.sort((a, b) => a - b);
    const errors = Object.values(stats.errors).reduce((sum, n) => sum + n, 0);
    const count4xx = Object.values(stats.status4xx).reduce((sum, n) => sum + n, 0);
    ok += times.length;
    fourxx += count4xx;
    ops[op] = {
      ok: times.length,
      perSecond: round(times.length / run.seconds, 1),
      p50: round(percentile(times, 50), 1),
      p99: round(percentile(times, 99), 1),
      max: round(times.at(-1) ?? null, 1),
      status4xx: stats.status4xx,
      sample4xx: stats.sample4xx,
      errors: stats.errors,
      errorCount: errors,
    };
  }
  return {
    seconds: round(run.seconds, 1),
    requests: ok + fourxx + run.errors.length,
    ok,
    fourxx,
    errorCount: run.errors.length,
    requestsPerSecond: round((ok + fourxx) / run.seconds, 1),
    sampleEverySeconds: run.sampleMs / 1000,
    benchProcessCpuPct: round(run.benchCpuPct, 0),
    ops,
    errors: run.errors.slice(0, 200),
    samples: run.samples,
    memory: memoryGrowth(run.samples, run.seconds),
  };
}

/**
 * Growth of the first process's resident memory after the warm-up (the first minute, or the first
 * third of a shorter run): the highest later sample and the last one, against the first sample
 * taken after the warm-up.
 */
function memoryGrowth(samples, seconds) {
  const warmupS = Math.min(60, seconds / 3);
  const after = samples.filter((s) => s.s >= warmupS && typeof s.rssMb[0] === "number");
  if (after.length < 2) return null;
  const base = after[0].rssMb[0];
  const later = after.slice(1).map((s) => s.rssMb[0]);
  const max = Math.max(...later);
  const end = later.at(-1);
  return { warmupS: round(warmupS, 0), warmMb: base, maxMb: max, endMb: end, maxGrowthPct: round((100 * (max - base)) / base, 1), endGrowthPct: round((100 * (end - base)) / base, 1) };
}

// ---- the table ------------------------------------------------------------------------------------

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function describe4xx(ops) {
  const parts = [];
  for (const [op, s] of Object.entries(ops)) {
    for (const [status, n] of Object.entries(s.status4xx)) parts.push(`${n}x ${status} on ${op}`);
  }
  return parts.length ? parts.join(", ") : "none";
}

function describeErrors(ops) {
  const parts = [];
  for (const [op, s] of Object.entries(ops)) {
    for (const [reason, n] of Object.entries(s.errors)) parts.push(`${n}x ${reason} on ${op}`);
  }
  return parts.join(", ");
}

function reportSingle(report, r, config) {
  const label = `soak, ${config.clients} clients, ${r.seconds} s`;
  report.below(`${label}: requests/s overall`, "req/s", r.requestsPerSecond, null, "", undefined);
  report.text(`${label}: CPU of the bench process (the clients)`, `${r.benchProcessCpuPct}% of one core`);
  for (const [op, s] of Object.entries(r.ops)) {
    report.text(`${label}: ${op} p50 / p99`, `${s.p50 ?? "n/a"} / ${s.p99 ?? "n/a"} ms (${s.perSecond}/s${s.errorCount ? `, ${plural(s.errorCount, "error")}` : ""})`);
  }
  report.check(`${label}: errors other than 4xx`, r.errorCount === 0, r.errorCount === 0 ? `0 of ${r.requests}` : `${r.errorCount} of ${r.requests}: ${describeErrors(r.ops)}`);
  report.text(`${label}: 4xx answers`, r.fourxx === 0 ? "none" : `${r.fourxx}: ${describe4xx(r.ops)}`);
  report.text(`${label}: server RSS every ${r.sampleEverySeconds} s`, `${r.samples.map((s) => s.rssMb[0]).join(", ")} MB`);
  if (r.memory) report.below(`${label}: server RSS growth after a ${r.memory.warmupS} s warm-up (highest sample vs the first after it)`, "%", r.memory.maxGrowthPct, null, "", 10, "< 10%");
  const connections = r.samples.map((s) => s.connections).filter((v) => v !== null);
  if (connections.length) report.text(`${label}: database connections every ${r.sampleEverySeconds} s`, connections.join(", "));
}

function reportFailover(report, f) {
  const label = `soak failover, 2 processes, ${f.seconds} s`;
  report.below(`${label}: requests/s overall`, "req/s", f.requestsPerSecond, null, "", undefined);
  report.text(`${label}: CPU of the bench process (the clients and the proxy)`, `${f.benchProcessCpuPct}% of one core`);
  const s = f.sorted;
  const explained = s.other.length === 0;
  report.check(
    `${label}: errors only the requests in flight on the killed process`,
    explained,
    `${f.errorCount} errors: ${s.inFlightFailed} of the ${s.inFlightAtKill} in flight at the kill, ${s.sentAfterKill} sent to it in the ${s.takenOutAfterMs ?? "?"} ms before the proxy took it out, ${s.other.length} other${s.other.length ? ` (${s.other.slice(0, 3).map((e) => `${e.op}: ${e.reason}`).join("; ")})` : ""}`,
  );
  report.text(`${label}: 4xx answers`, f.fourxx === 0 ? "none" : `${f.fourxx}: ${describe4xx(f.ops)}`);
  report.text(`${label}: killed process answering again after`, `${f.restartMs ?? "n/a"} ms (cold start ${f.restartColdStartMs ?? "n/a"} ms), back in the proxy's rotation after ${f.backInRotationMs ?? "n/a"} ms`);
  report.text(`${label}: RSS every ${f.sampleEverySeconds} s (process 1 / process 2)`, f.samples.map((x) => x.rssMb.map((v) => v ?? "-").join("/")).join(", ") + " MB");
  const connections = f.samples.map((x) => x.connections).filter((v) => v !== null);
  if (connections.length) report.text(`${label}: database connections every ${f.sampleEverySeconds} s`, connections.join(", "));
}
