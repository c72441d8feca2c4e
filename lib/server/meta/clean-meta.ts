/**
 * The contract's `meta` keys (api.md, "File metadata") plus `camera` for images. Values come from
 * the file, so from anyone: every one is cleaned here before it is stored.
 */
export type FileMeta = Partial<Record<"author" | "creator" | "date" | "keywords" | "producer" | "subject" | "title" | "camera", string>> & { pages?: number };

const TEXT_KEYS = ["author", "creator", "keywords", "producer", "subject", "title", "camera"] as const;

/** A value longer than this is cut (by characters, never inside a surrogate pair). */
export const MAX_META_CHARS = 1000;
/** More pages than this is no document's real count. */
const MAX_PAGES = 1_000_000;

// NUL and the other C0 controls but tab and line breaks, DEL, the C1 controls, and the bidi controls
// (which can make a name read backwards in a listing: "Trojan Source").
const UNWANTED = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** What is looked at of a value: the work on the web thread stays small whatever a file holds. */
const MAX_SCANNED = 4 * MAX_META_CHARS;

/** A string from a file, cleaned and cut; undefined when nothing is left. */
export function cleanText(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  // A pair of surrogates cut in two by the first slice loses its lone half.
  const scanned = value.length > MAX_SCANNED ? value.slice(0, MAX_SCANNED).replace(/[\uD800-\uDBFF]$/, "") : value;
  const cleaned = scanned.replace(UNWANTED, "").replace(/\s+/g, " ").trim();
  if (!cleaned) return undefined;
  const chars = Array.from(cleaned);
  return chars.length > MAX_META_CHARS ? chars.slice(0, MAX_META_CHARS).join("") : cleaned;
}

/** A page count: a whole number from 1 to MAX_PAGES, else undefined. */
export function cleanPages(value: unknown): number | undefined {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\s*\d{1,7}\s*$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= MAX_PAGES ? n : undefined;
}

/**
 * A date as ISO 8601 (UTC), from a Date, an ISO 8601 text (a date and time without a zone is read
 * as UTC) or a PDF date (`D:YYYYMMDDHHmmSSOHH'mm'`); undefined when it is no valid date.
 */
export function cleanDate(value: unknown): string | undefined {
  if (value instanceof Date) return validIso(value);
  if (typeof value !== "string") return undefined;
  const text = value.slice(0, 100).replace(UNWANTED, "").trim();
  // A PDF date may lack its "D:" prefix: digits running past the year are never ISO 8601's.
  return text.startsWith("D:") || /^\d{5}|^\d{4}$/.test(text) ? pdfDate(text) : isoDate(text);
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

function isoDate(text: string): string | undefined {
  const m = ISO.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h = "00", mi = "00", s = "00", fraction = "", zone = "Z"] = m;
  const offset = zone.toUpperCase() === "Z" ? 0 : zoneMinutes(zone);
  return fromParts(+y, +mo, +d, +h, +mi, +s, Math.floor(Number(`0${fraction || ".0"}`) * 1000), offset);
}

// PDF 32000-1, 7.9.4: every part after the year is optional; the zone is Z, or +/- HH'mm'.
const PDF = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*(?:(Z)|([+-])(\d{2})'?(?:(\d{2})'?)?)?/;

function pdfDate(text: string): string | undefined {
  const m = PDF.exec(text);
  if (!m) return undefined;
  const [, y, mo = "01", d = "01", h = "00", mi = "00", s = "00", , sign, zh = "00", zm = "00"] = m;
  const offset = sign ? (sign === "-" ? -1 : 1) * (+zh * 60 + +zm) : 0;
  return fromParts(+y, +mo, +d, +h, +mi, +s, 0, offset);
}

function zoneMinutes(zone: string): number {
  const digits = zone.replace(":", "");
  return (digits[0] === "-" ? -1 : 1) * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
}

/** The parts as given must name a real moment (no 31 February, no hour 25); the offset is the zone's, in minutes. */
function fromParts(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number, offsetMinutes: number): string | undefined {
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59 || Math.abs(offsetMinutes) > 18 * 60) return undefined;
  const local = new Date(Date.UTC(y, mo - 1, d, h, mi, s, ms));
  if (local.getUTCFullYear() !== y || local.getUTCMonth() !== mo - 1 || local.getUTCDate() !== d) return undefined;
  return validIso(new Date(local.getTime() - offsetMinutes * 60_000));
}

function validIso(date: Date): string | undefined {
  // Years 1000 to 9999: what ISO 8601 writes with four digits, and no real document is older.
  const year = date.getUTCFullYear();
  return Number.isFinite(date.getTime()) && year >= 1000 && year <= 9999 ? date.toISOString() : undefined;
}

/** The raw properties a reader found, as the contract's keys: cleaned, and absent when empty or invalid. */
export function cleanMeta(raw: Record<string, unknown>): FileMeta {
  const meta: FileMeta = {};
  for (const key of TEXT_KEYS) {
    const value = cleanText(raw[key]);
    if (value !== undefined) meta[key] = value;
  }
  const date = cleanDate(raw.date);
  if (date !== undefined) meta.date = date;
  const pages = cleanPages(raw.pages);
  if (pages !== undefined) meta.pages = pages;
  return meta;
}
