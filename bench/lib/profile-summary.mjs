// Summarises V8 CPU profiles (node --cpu-prof): the functions with the most self time, and the
// most inclusive time, so "where the time goes" is read from a profile, not guessed.
//   node bench/lib/profile-summary.mjs <file.cpuprofile | directory> [top=25] [--from=<regex>]
// --from: only the samples from the first one whose stack has a frame matching <regex> (e.g.
// --from=writeChunkAt), so the server's start and module loading do not hide the scenario.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const args = process.argv.slice(2);
const from = args.find((a) => a.startsWith("--from="))?.slice("--from=".length);
const [target, topArg] = args.filter((a) => !a.startsWith("--"));
if (!target) {
  console.error("usage: node bench/lib/profile-summary.mjs <file.cpuprofile | directory> [top]");
  process.exit(2);
}
const top = Number(topArg ?? 25);
const files = statSync(target).isDirectory()
  ? readdirSync(target).filter((f) => f.endsWith(".cpuprofile")).map((f) => path.join(target, f))
  : [target];

for (const file of files) summarise(file);

function summarise(file) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Self time per node from the sample deltas.
  const label = (n) => {
    const f = n.callFrame;
    const where = f.url ? `${f.url.replace(/^.*\/(node_modules|\.next)\//, "$1/")}:${f.lineNumber + 1}` : "";
    return `${f.functionName || "(anonymous)"} ${where}`.trim();
  };
  const selfUs = new Map();
  let first = 0;
  if (from) {
    const pattern = new RegExp(from);
    const matches = new Map();
    const matching = (id) => {
      if (!matches.has(id)) {
        let hit = false;
        for (let cur = id; !hit && cur !== undefined; cur = parent.get(cur)) hit = pattern.test(label(nodes.get(cur)));
        matches.set(id, hit);
      }
      return matches.get(id);
    };
    first = profile.samples.findIndex((id) => matching(id));
    if (first < 0) {
      console.log(`\n== ${path.basename(file)}: no sample matches --from=${from}`);
      return;
    }
  }
  profile.samples.forEach((id, i) => {
    if (i >= first) selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const self = new Map();
  const inclusive = new Map();
  for (const [id, us] of selfUs) {
    const key = label(nodes.get(id));
    self.set(key, (self.get(key) ?? 0) + us);
    // Inclusive: every distinct frame on the stack of this sample, once.
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const k = label(nodes.get(cur));
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + us);
    }
  }
  // Percentages of busy time: idle samples (waiting for I/O) are left out.
  const idle = self.get("(idle)") ?? 0;
  const busy = total - idle;
  self.delete("(idle)");
  inclusive.delete("(idle)");
  inclusive.delete("(root)");
  const pct = (us) => `${((100 * us) / busy).toFixed(1).padStart(5)}%`;
  console.log(`\n== ${path.basename(file)}: ${(total / 1e6).toFixed(2)} s sampled, ${(busy / 1e6).toFixed(2)} s busy (percentages of busy time)`);
  // Where the time goes by component: each sample goes to the first frame of its stack (from the
  // top) that belongs to a package or to the app's bundle, so a socket write called by postgres.js
  // counts for postgres.js, not for "node".
  const components = new Map();
  for (const [id, us] of selfUs) {
    let component = null;
    const own = nodes.get(id).callFrame.functionName;
    if (own === "(garbage collector)" || own === "(program)" || own === "(idle)") component = own;
    for (let cur = id; !component && cur !== undefined; cur = parent.get(cur)) component = componentOf(nodes.get(cur).callFrame.url);
    component ??= "node core (no package on the stack)";
    if (component === "(idle)") continue;
    components.set(component, (components.get(component) ?? 0) + us);
  }
  console.log("-- by component (self time, attributed to the nearest package on the stack)");
  for (const [k, us] of [...components].sort((a, b) => b[1] - a[1])) console.log(`${pct(us)}  ${k}`);
  console.log("-- self time");
  for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)}  ${k}`);
  console.log("-- inclusive time");
  for (const [k, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)}  ${k}`);
}

function componentOf(url) {
  if (!url) return null;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.includes("/.next/server/chunks/")) {
    const bundled = /chunks\/(?:\[[^\]]+\]_)?node_modules_((?:@[^_]+_)?[a-z0-9-]+?)(?:_[0-9a-z-]+)?\._\.js/.exec(url.replace(/%5B|%5D/g, ""));
    if (bundled) return `${bundled[1]} (bundled)`;
    return "app bundle (.next chunks: app code + bundled helpers)";
  }
  if (url.includes("/.next/")) return "app bundle (.next)";
  return null;
}
