import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";

export type AppServer = { url: string; port: number; proc: ChildProcess; output: () => string; kill: (signal?: NodeJS.Signals) => Promise<void> };

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The output of every server this test file started (a restarted server is a new process). */
const outputs: Array<() => string> = [];

/**
 * What must never appear in a server's output: a crash of the process (the "0 uncaught
 * exceptions") or a web stream cancelled under undici's feet (environment.md, trap 16).
 */
export const CRASH_PATTERN = /uncaughtException|unhandledRejection|ERR_INVALID_STATE/g;

/** The crash lines of every server started by this test file so far, with their context. */
export function serverCrashes(): string[] {
  const found: string[] = [];
  for (const output of outputs) {
    const log = output();
    for (const match of log.matchAll(CRASH_PATTERN)) found.push(log.slice(Math.max(0, match.index - 200), match.index + 600));
  }
  return found;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/** Starts the BUILT app (`npm start`: the server in front of Next) and waits until /api/health answers. */
export async function startApp(env: Record<string, string>, port?: number): Promise<AppServer> {
  const p = port ?? (await freePort());
  const proc = spawn(process.execPath, [path.join(ROOT, ".next/coffre-server.mjs")], {
    cwd: ROOT,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", PORT: String(p), HOST: "127.0.0.1", TRUSTED_PROXIES: "", ADMIN_LOGIN: "admin", ADMIN_PASSWORD: "Adm1n-password", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
  proc.stdout!.on("data", (d) => (log += d));
  proc.stderr!.on("data", (d) => (log += d));
  outputs.push(() => log);
  const url = `http://127.0.0.1:${p}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited early:\n${log}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.status === 200) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`server did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    port: p,
    proc,
    output: () => log,
    kill: async (signal: NodeJS.Signals = "SIGTERM") => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once("exit", r));
      // Signal the whole group, in case the server ever runs children.
      try {
        process.kill(-proc.pid!, signal);
      } catch {}
      await exited;
    },
  };
}

export async function signIn(url: string, user = "admin", password = "Adm1n-password"): Promise<string> {
  const res = await fetch(`${url}/api/auth`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ user, password }) });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

export async function api<T = any>(url: string, token: string, method: string, p: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${url}/api${p}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: res.status, body: parsed as T };
}

/** A multipart upload through POST /api/file/upload with the contract's parts. */
export async function uploadFile(url: string, token: string, folderId: number, name: string, content: Uint8Array, extra: Record<string, string> = {}) {
  const form = new FormData();
  form.set("folderId", String(folderId));
  for (const [k, v] of Object.entries(extra)) form.set(k, v);
  form.set("targetFile", new Blob([content as Uint8Array<ArrayBuffer>]), name);
  const res = await fetch(`${url}/api/file/upload`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, body };
}

export async function privateRootOf(url: string, token: string): Promise<number> {
  const account = await api(url, token, "GET", "/account");
  return account.body.roots[0];
}

export async function makeFolder(url: string, token: string, parentId: number, name: string): Promise<number> {
  const res = await api(url, token, "POST", "/folder", { name, parent_id: parentId });
  if (res.status !== 201 && res.status !== 200) throw new Error(`folder: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

export async function folderFiles(url: string, token: string, folderId: number): Promise<{ id: number; name: string; hash: string; size: number }[]> {
  const res = await api(url, token, "GET", `/folder/${folderId}?depth=1`);
  if (res.status !== 200) throw new Error(`list: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.content?.files ?? [];
}
