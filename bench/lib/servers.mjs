import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { log, sleep } from "./util.mjs";

/** Every child process group started by the bench, so cleanup can end them (and only them). */
export const children = new Set();

/** GET a URL once; resolves the status (0 when nothing answers). */
function probe(url) {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: 2000 }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode));
    });
    req.on("error", () => resolve(0));
    req.on("timeout", () => req.destroy());
  });
}

/**
 * Starts a process in its own process group, its output in `logFile`, and waits until
 * `healthUrl` answers 200. Resolves with the handle and the time from spawn to that answer.
 */
export async function startProcess({ name, command, args, cwd, env, logFile, healthUrl, timeoutMs = 180_000 }) {
  const out = openSync(logFile, "a");
  const spawnedAt = performance.now();
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ["ignore", out, out] });
  closeSync(out);
  const handle = { name, child, pid: child.pid, logFile, exited: false };
  children.add(handle);
  child.on("exit", (code, signal) => {
    handle.exited = true;
    handle.exitInfo = signal ?? code;
  });
  for (;;) {
    const status = await probe(healthUrl);
    if (status === 200) break;
    if (handle.exited) throw new Error(`${name} exited (${handle.exitInfo}) before answering; log:\n${tail(logFile)}`);
    if (performance.now() - spawnedAt > timeoutMs) {
      await stopProcess(handle);
      throw new Error(`${name} did not answer ${healthUrl} within ${timeoutMs / 1000} s; log:\n${tail(logFile)}`);
    }
    await sleep(20);
  }
  handle.coldStartMs = performance.now() - spawnedAt;
  return handle;
}

/** SIGTERM to the whole group, SIGKILL after `graceMs`. */
export async function stopProcess(handle, graceMs = 15_000) {
  if (!handle || !children.has(handle)) return;
  const exited = new Promise((resolve) => (handle.exited ? resolve() : handle.child.once("exit", resolve)));
  signalGroup(handle, "SIGTERM");
  const timedOut = await Promise.race([exited.then(() => false), sleep(graceMs).then(() => true)]);
  if (timedOut) {
    log(`${handle.name} ignored SIGTERM for ${graceMs / 1000} s: SIGKILL`);
    signalGroup(handle, "SIGKILL");
    await exited;
  }
  // Leftover members of the group (workers) go too.
  signalGroup(handle, "SIGKILL");
  children.delete(handle);
}

function signalGroup(handle, signal) {
  try {
    process.kill(-handle.pid, signal);
  } catch {
    // already gone
  }
}

/** Synchronous last resort (process "exit"): kill every group we started. */
export function killAllChildrenSync() {
  for (const handle of children) signalGroup(handle, "SIGKILL");
  children.clear();
}

export function tail(file, lines = 30) {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

/** The built server (`npm start`: the Node server in front of Next), or `next start` alone, on a free port with the bench's data folder and database. */
export function startApp({ root, port, dataDir, databaseUrl, admin, logFile, extraEnv = {}, nodeArgs = [], plainNext = false }) {
  const env = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    ADMIN_LOGIN: admin.login,
    ADMIN_PASSWORD: admin.password,
    NEXT_TELEMETRY_DISABLED: "1",
    ...extraEnv,
  };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  return startProcess({
    name: plainNext ? "next start" : "app server",
    command: process.execPath,
    // plainNext: Next's own server without server.ts, to measure what the server in front costs.
    args: plainNext ? [...nodeArgs, path.join(root, "node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port), "-H", "127.0.0.1"] : [...nodeArgs, path.join(root, ".next", "coffre-server.mjs")],
    cwd: root,
    env,
    logFile,
    healthUrl: `http://127.0.0.1:${port}/api/health`,
  });
}
