import http from "node:http";
import autocannon from "autocannon";
import { request } from "./http-client.mjs";
import { cpuMs, processTree } from "./memory.mjs";
import { percentile } from "./util.mjs";

/**
 * One client, requests one after the other on a kept-alive connection: `warmup` unmeasured,
 * then `count` measured (time to the last byte of the answer). Any non-200 is an error.
 */
export async function sequentialLatency(url, headers, { warmup, count, maxMs = 45_000 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let i = 0; i < warmup; i++) {
      const res = await request(url, { headers, agent });
      if (res.status !== 200) throw new Error(`GET ${url}: HTTP ${res.status} ${String(res.text).slice(0, 200)}`);
    }
    const times = [];
    let errors = 0;
    let bytes = 0;
    // A slow endpoint stops after `maxMs` (at least 50 samples), so one slow query cannot stall the run.
    const started = performance.now();
    for (let i = 0; i < count && (i < 50 || performance.now() - started < maxMs); i++) {
      const res = await request(url, { headers, agent });
      if (res.status !== 200) errors++;
      times.push(res.ms);
      bytes = res.bytes;
    }
    times.sort((a, b) => a - b);
    return { count: times.length, errors, median: percentile(times, 50), p99: percentile(times, 99), min: times[0], max: times.at(-1), responseBytes: bytes };
  } finally {
    agent.destroy();
  }
}

/**
 * `connections` concurrent clients for `seconds` (autocannon); requests/s counts 2xx only. With
 * `pid`, the server's CPU time per request too (user + system of its process tree), a figure the
 * machine's other load does not inflate the way it does wall time.
 */
export async function throughput(url, headers, { connections, seconds, pid }) {
  const pids = pid ? processTree(pid) : [];
  const cpuBefore = cpuMs(pids);
  const result = await autocannon({ url, headers, connections, duration: seconds, pipelining: 1, timeout: 30 });
  const cpu = cpuMs(pids) - cpuBefore;
  const ok = result["2xx"];
  return {
    connections,
    seconds,
    rps: ok / (result.duration || seconds),
    requests: result.requests.total,
    ok,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMsPerRequest: pid && result.requests.total ? cpu / result.requests.total : null,
  };
}
