import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Collects table rows. A row: scenario, Coffre figure, reference figure (with the reference's
 * name), ratio Coffre/reference, target and verdict. A missing figure prints "n/a" and its
 * reason goes to the notes under the table.
 */
export class Report {
  constructor() {
    this.rows = [];
    this.notes = [];
    /** Reason → scenarios it made n/a, so one cause prints once. */
    this.missing = new Map();
  }

  note(text) {
    if (!this.notes.includes(text)) this.notes.push(text);
  }

  /** Ratio target: pass when coffre/reference >= min (throughputs). */
  ratio(scenario, unit, coffre, reference, refName, min) {
    const ratio = valid(coffre) && valid(reference) && reference > 0 ? coffre / reference : null;
    this.rows.push({
      scenario,
      unit,
      coffre: num(coffre),
      reference: num(reference),
      refName,
      ratio,
      target: min === undefined ? "—" : `≥ ${min}x`,
      pass: min === undefined ? null : ratio === null ? "n/a" : ratio >= min,
    });
    this.noteMissing(scenario, coffre, reference);
  }

  /** Absolute upper bound on Coffre's figure (latencies, memory); the reference is shown beside it. */
  below(scenario, unit, coffre, reference, refName, max, targetText) {
    const ratio = valid(coffre) && valid(reference) && reference > 0 ? coffre / reference : null;
    this.rows.push({
      scenario,
      unit,
      coffre: num(coffre),
      reference: num(reference),
      refName,
      ratio,
      target: max === undefined ? "—" : (targetText ?? `< ${max} ${unit}`),
      pass: max === undefined ? null : valid(coffre) ? coffre < max : "n/a",
    });
    this.noteMissing(scenario, coffre, reference);
  }

  /** A yes/no check (MD5 equality, Content-Length present). */
  check(scenario, ok, detail) {
    this.rows.push({ scenario, unit: "", coffre: detail ?? (ok === null ? "n/a" : ok ? "yes" : "no"), reference: null, refName: "", ratio: null, target: "yes", pass: ok === null ? "n/a" : ok });
  }

  /** A figure told in words, without a target (p50 / p99 of an operation, samples over time). */
  text(scenario, detail) {
    this.rows.push({ scenario, unit: "", coffre: detail, reference: null, refName: "", ratio: null, target: "—", pass: null });
  }

  noteMissing(scenario, coffre, reference) {
    for (const [value, who] of [[coffre, "Coffre"], [reference, "reference"]]) {
      const reason = value && typeof value === "object" ? (value.error ?? value.na) : undefined;
      if (!reason) continue;
      // Ports and ids differ between rows failing for one cause: they do not split the note.
      const key = `${who}: ${String(reason).replace(/127\.0\.0\.1:\d+/g, "…").replace(/\/\d+\//g, "/…/")}`;
      if (!this.missing.has(key)) this.missing.set(key, []);
      const list = this.missing.get(key);
      if (!list.includes(scenario)) list.push(scenario);
    }
  }

  allNotes() {
    const missing = [...this.missing].map(([key, scenarios]) => `${key.split(": ")[0]} n/a in ${scenarios.length} row(s) (${scenarios.length > 4 ? `${scenarios.slice(0, 3).join("; ")}; …` : scenarios.join("; ")}): ${key.slice(key.indexOf(": ") + 2)}`);
    return [...missing, ...this.notes];
  }

  print(out = process.stdout) {
    const header = ["scenario", "Coffre", "reference", "ratio", "target", "pass/fail"];
    const lines = this.rows.map((r) => [
      r.unit ? `${r.scenario} (${r.unit})` : r.scenario,
      typeof r.coffre === "string" ? r.coffre : fmt(r.coffre),
      r.reference === null && !r.refName ? "—" : `${fmt(r.reference)}${r.refName ? ` ${r.refName}` : ""}`,
      r.ratio === null ? (r.refName ? "n/a" : "—") : `${r.ratio.toFixed(2)}x`,
      r.target,
      r.pass === null ? "—" : r.pass === "n/a" ? "n/a" : r.pass ? "PASS" : "FAIL",
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
    const row = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
    out.write(`${row(header)}\n| ${widths.map((w) => "-".repeat(w)).join(" | ")} |\n`);
    for (const l of lines) out.write(`${row(l)}\n`);
    const notes = this.allNotes();
    if (notes.length) out.write(`\nNotes:\n${notes.map((n) => `- ${n}`).join("\n")}\n`);
  }

  write(dir, data) {
    mkdirSync(dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    const body = JSON.stringify({ ...data, table: this.rows, notes: this.allNotes() }, null, 2);
    const file = path.join(dir, `${stamp}.json`);
    writeFileSync(file, body);
    writeFileSync(path.join(dir, "latest.json"), body);
    return file;
  }
}

const valid = (v) => typeof v === "number" && Number.isFinite(v);
const num = (v) => (valid(v) ? v : null);

function fmt(v) {
  if (!valid(v)) return "n/a";
  if (Math.abs(v) >= 100) return v.toFixed(0);
  if (Math.abs(v) >= 10) return v.toFixed(1);
  return v.toFixed(2);
}
