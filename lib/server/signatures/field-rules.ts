import "server-only";
import type { SignatureFieldRow } from "@/db/schema";
import { AUTO_FIELD_TYPES, CHOICE_FIELD_TYPES } from "@/lib/contracts/signatures";
import { AppError } from "../errors";

export const bad = (path: string, message: string) => new AppError("invalid_request", `Invalid request: ${path}: ${message}`, [{ path, message }]);

export const isAutoField = (type: string) => (AUTO_FIELD_TYPES as readonly string[]).includes(type);
export const isChoiceField = (type: string) => (CHOICE_FIELD_TYPES as readonly string[]).includes(type);
/** Fields the signer's act fills (a drawn or typed signature, initials): never optional, never prefilled. */
export const isSignatureLike = (type: string) => type === "signature" || type === "initials";

/** A number as a signer types it: digits, one optional sign, one `.` or `,` decimal separator. */
const NUMBER = /^[-+]?\d{1,15}(?:[.,]\d{1,10})?$/;

/** "1,5" → "1.5"; null when not a number. */
export function parseNumberValue(raw: string): string | null {
  const text = raw.trim();
  if (!NUMBER.test(text)) return null;
  const n = Number(text.replace(",", "."));
  return Number.isFinite(n) ? String(n) : null;
}

type FieldSettings = Pick<SignatureFieldRow, "type" | "optional" | "readOnly" | "defaultValue" | "maxLength" | "options" | "fontSize">;

/**
 * The settings of a field as stored, checked against its type (issue 31): choices only for radio
 * groups and dropdowns (distinct, the prefilled value one of them), a prefilled number is a
 * number, a read-only field carries its value, and the automatic fields (full name, email, date
 * signed) are required and read-only whatever the body said. Throws a 400 naming the setting.
 */
export function normaliseFieldSettings<T extends FieldSettings>(field: T): T {
  const next = { ...field };
  if (isChoiceField(next.type)) {
    const options = next.options ?? [];
    if (options.length === 0) throw bad("options", `A ${next.type} field needs its options`);
    if (new Set(options).size !== options.length) throw bad("options", "Options must be distinct");
    if (next.defaultValue && !options.includes(next.defaultValue)) throw bad("default_value", "Not one of the options");
  } else {
    next.options = null;
  }
  if (next.type === "number" && next.defaultValue) {
    const n = parseNumberValue(next.defaultValue);
    if (n === null) throw bad("default_value", "Not a number");
    next.defaultValue = n;
  }
  if (next.type === "checkbox" && next.defaultValue && !["true", "false"].includes(next.defaultValue)) throw bad("default_value", "A checkbox is prefilled with true or false");
  if (next.defaultValue !== null && next.maxLength !== null && [...next.defaultValue].length > next.maxLength) throw bad("default_value", "Longer than max_length");
  if (isSignatureLike(next.type)) {
    if (next.readOnly) throw bad("read_only", `A ${next.type} field is filled by its signer`);
    next.optional = false;
    next.defaultValue = null;
  } else if (isAutoField(next.type)) {
    next.optional = false;
    next.readOnly = true;
    next.defaultValue = null;
  } else if (next.readOnly && (next.defaultValue === null || next.defaultValue === "")) {
    throw bad("default_value", "A read-only field needs its prefilled value");
  }
  return next;
}
