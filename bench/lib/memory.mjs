import { readdirSync, readFileSync } from "node:fs";

/** The pid and all its descendants, from /proc/<pid>/stat parent links. */
export function processTree(rootPid) {
  const children = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // The command name may contain spaces and parentheses: the fields start after the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(Number(entry));
  }
  const tree = [];
  const queue = [rootPid];
  while (queue.length) {
    const pid = queue.shift();
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Resident memory of the given processes, in bytes (VmRSS summed). */
export function residentBytes(pids) {
  let total = 0;
  for (const pid of pids) {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (match) total += Number(match[1]) * 1024;
    } catch {
      // exited meanwhile
    }
  }
  return total;
}

/**
 * Samples the resident memory of a process tree every 100 ms. The tree is re-read every second
 * (walking /proc is the costly part); the RSS of known pids every tick.
 */
export class RssSampler {
  constructor(rootPid, intervalMs = 100) {
    this.rootPid = rootPid;
    this.samples = [];
    this.pids = processTree(rootPid);
    let ticks = 0;
    this.timer = setInterval(() => {
      if (++ticks % 10 === 0) this.pids = processTree(rootPid);
      this.samples.push({ t: performance.now(), rss: residentBytes(this.pids) });
      if (this.samples.length > 200_000) this.samples.splice(0, 100_000);
    }, intervalMs);
    this.timer.unref();
  }

  now() {
    this.pids = processTree(this.rootPid);
    return residentBytes(this.pids);
  }

  /** Starts a window: returns a function giving {before, max, growth} for the window so far. */
  window() {
    const before = this.now();
    const start = performance.now();
    return () => {
      const end = this.now();
      let max = Math.max(before, end);
      for (const s of this.samples) if (s.t >= start && s.rss > max) max = s.rss;
      return { before, max, after: end, growth: max - before };
    };
  }

  stop() {
    clearInterval(this.timer);
  }
}

/** CPU time (user + system) used so far by the given processes, in milliseconds. */
export function cpuMs(pids) {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // Fields 14 and 15 of stat (utime, stime) are at 11 and 12 after the command name.
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // exited meanwhile
    }
  }
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}
