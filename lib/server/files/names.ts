import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { AppError } from "../errors";

// api.md: 1..255 characters, never . or .., no / \ NUL or control characters, no leading or
// trailing spaces; names compare case-insensitively after NFC normalisation.
const FORBIDDEN = /[/\\\u0000-\u001f\u007f-\u009f]/;

/**
 * Unicode format characters (category Cf) draw nothing or reorder what follows:
 * "invoice\u202Efdp.exe" shows as "invoiceexe.pdf". All are refused but the two joiners
 * (U+200C, U+200D), which Persian, Indic scripts and emoji sequences need, and only where neither
 * neighbour is ASCII, so that they cannot split a Latin word or an extension invisibly.
 */
const FORMAT = /\p{Cf}/u;
const LOOSE_JOINER = /[\u200c\u200d](?![^\u0000-\u007f])|(?<![^\u0000-\u007f])[\u200c\u200d]/u;

export function hasFormatCharacter(name: string): boolean {
  if (LOOSE_JOINER.test(name)) return true;
  return FORMAT.test(name.replace(/[\u200c\u200d]/g, ""));
}

export function validateName(raw: string): string {
  const name = raw.normalize("NFC");
  const bad =
    name.length === 0 || name.length > 255 || name === "." || name === ".." || FORBIDDEN.test(name) || hasFormatCharacter(name) || name.trim() !== name;
  if (bad) {
    throw new AppError("invalid_name", `Invalid name ${printable(raw.slice(0, 60))}: 1 to 255 characters, no slashes, control or invisible format characters, no leading or trailing spaces, not . or ..`, [
      { path: "name", message: "invalid name" },
    ]);
  }
  return name;
}

/** Quoted, with invisible and control characters written as \u escapes, so an error never reorders its own text. */
const printable = (name: string) => JSON.stringify(name).replace(/[\p{Cf}\p{Cc}]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** The key two names collide on inside one folder. */
export const nameKey = (name: string) => name.normalize("NFC").toLowerCase();

/** "report.pdf" → "report (2).pdf"; folders and extension-less names get the suffix at the end. */
export function numberedName(name: string, n: number, isFile = true): string {
  const dot = isFile ? name.lastIndexOf(".") : -1;
  if (dot > 0) return `${name.slice(0, dot)} (${n})${name.slice(dot)}`;
  return `${name} (${n})`;
}

/** Names made unique as they come, ignoring case: "a.txt", "A (2).txt"... (the top level of a zip). */
export function uniqueNamer(): (name: string, isFile: boolean) => string {
  const taken = new Set<string>();
  return (name, isFile) => {
    let candidate = name;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = numberedName(name, n, isFile);
    taken.add(candidate.toLowerCase());
    return candidate;
  };
}

/** The first of name, "name (2)", "name (3)", ... that `isTaken` refuses. */
export async function firstFreeName(name: string, isTaken: (candidate: string) => Promise<boolean>, isFile = true): Promise<string> {
  if (!(await isTaken(name))) return name;
  for (let n = 2; n < 10_000; n++) {
    const candidate = numberedName(name, n, isFile);
    if (!(await isTaken(candidate))) return candidate;
  }
  throw new AppError("conflict", "No free name is left for this item");
}

/**
 * SQL: this stored key (a `name_key` column) or name column equals `name` as names compare.
 * The comparison runs in PostgreSQL so that case folding is the database's, as in the indexes.
 */
export function sameName(column: AnyPgColumn, name: string, isKeyColumn = true): SQL {
  const key = sql`lower(normalize(${name}, NFC))`;
  return isKeyColumn ? sql`${column} = ${key}` : sql`lower(normalize(${column}, NFC)) = ${key}`;
}
