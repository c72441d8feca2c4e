import "server-only";
export type RangeRequest = { kind: "whole" } | { kind: "partial"; start: number; end: number } | { kind: "unsatisfiable" };

/**
 * A `Range` header (RFC 9110 §14) against a representation of `size` bytes: one range, an open
 * range (`bytes=100-`) or a suffix (`bytes=-500`). Several ranges in one request are answered
 * with the whole content (200), which the RFC allows, rather than a multipart/byteranges body.
 * Headers that do not parse, other units and empty files are ignored (200) as the RFC asks.
 */
export function parseRange(header: string | null | undefined, size: number): RangeRequest {
  if (!header || size === 0) return { kind: "whole" };
  const match = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!match) return { kind: "whole" };
  const specs = match[1].split(",").map((s) => s.trim());
  if (specs.length !== 1) return { kind: "whole" };
  const spec = /^(\d*)\s*-\s*(\d*)$/.exec(specs[0]);
  if (!spec || (spec[1] === "" && spec[2] === "")) return { kind: "whole" };

  if (spec[1] === "") {
    const suffix = Number(spec[2]);
    if (suffix === 0) return { kind: "unsatisfiable" };
    return { kind: "partial", start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(spec[1]);
  const last = spec[2] === "" ? Number.POSITIVE_INFINITY : Number(spec[2]);
  if (last < start) return { kind: "whole" };
  if (start >= size) return { kind: "unsatisfiable" };
  return { kind: "partial", start, end: Math.min(last, size - 1) };
}
