import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A PostgreSQL server of the test's own (initdb in a temporary folder, its own port), so the test
 * can stop and start it without disturbing the machine's shared server. Runs as the `postgres`
 * system user, since PostgreSQL refuses to run as root.
 */
export function privatePostgres(port: number) {
  const bin = findBin();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "coffre-pg-"));
  fs.chmodSync(dir, 0o777);
  const data = path.join(dir, "data");
  const asPostgres = (cmd: string, args: string[]) => {
    const wrapped = process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", cmd, ...args]] : [cmd, args];
    const r = spawnSync(wrapped[0] as string, wrapped[1] as string[], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout}`);
  };
  if (process.getuid?.() === 0) execFileSync("chown", ["postgres", dir]);
  asPostgres(path.join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const start = () => asPostgres(path.join(bin, "pg_ctl"), ["-D", data, "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, "-l", path.join(dir, "log"), "-w", "start"]);
  const stop = () => asPostgres(path.join(bin, "pg_ctl"), ["-D", data, "-m", "fast", "-w", "stop"]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy: () => {
      try {
        stop();
      } catch {}
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function findBin(): string {
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort().reverse() : [];
  for (const v of versions) if (fs.existsSync(path.join(root, v, "bin", "initdb"))) return path.join(root, v, "bin");
  throw new Error("PostgreSQL server binaries (initdb, pg_ctl) not found under /usr/lib/postgresql");
}
