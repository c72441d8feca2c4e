import "server-only";
import type { SignatureActorRow, SignatureFieldRow } from "@/db/schema";
import { BIDI, type SignInput } from "@/lib/contracts/signatures";
import { bad, isAutoField, isChoiceField, parseNumberValue } from "./field-rules";

const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F]/;
const MAX_INITIALS = 10;

/** Free text from a signer: no NUL, control or bidirectional characters, at most `max` characters once trimmed. */
export function cleanText(value: string, path: string, max: number): string {
  if (CONTROL.test(value)) throw bad(path, "Control characters are not allowed");
  if (BIDI.test(value)) throw bad(path, "Bidirectional control characters are not allowed");
  const text = value.trim();
  if ([...text].length > max) throw bad(path, `At most ${max} characters`);
  return text;
}

/** A locale Intl knows, else English: the signer's own locale is free text from the initiator. */
function safeLocale(locale: string | null): string {
  try {
    return locale && Intl.DateTimeFormat.supportedLocalesOf([locale]).length ? locale : "en";
  } catch {
    return "en";
  }
}

/** The date signed as its signer reads it (issue 31): their locale's long date, in UTC. */
export const formatSignedDate = (date: Date, locale: string | null) => new Intl.DateTimeFormat(safeLocale(locale), { dateStyle: "long", timeZone: "UTC" }).format(date);

/** The caption under a signature or initials stamp: the signer's name and when they signed. */
export const signedCaption = (name: string, date: Date, locale: string | null) =>
  `${name} · ${new Intl.DateTimeFormat(safeLocale(locale), { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(date)} UTC`;

export const initialsOf = (actor: Pick<SignatureActorRow, "firstName" | "lastName">) =>
  [actor.firstName, actor.lastName].map((n) => [...n.trim()][0]?.toLocaleUpperCase() ?? "").join("");

type Signer = Pick<SignatureActorRow, "firstName" | "lastName" | "email" | "locale">;
type FieldValue = { id: number; value: string };
type Raw = string | number | boolean | null | undefined;

const isChecked = (raw: Raw) => raw === true || raw === "true" || raw === 1 || raw === "1" || raw === "on";

/** What the platform fills itself: the signer's name, address and the date of signing. */
function autoValue(f: SignatureFieldRow, actor: Signer, now: Date): string {
  if (f.type === "full_name") return `${actor.firstName} ${actor.lastName}`.trim();
  if (f.type === "email") return actor.email;
  return formatSignedDate(now, actor.locale);
}

/** One field's value from the signer's answer, or a 400 naming the field. */
function valueOf(f: SignatureFieldRow, raw: Raw, actor: Signer, now: Date): string {
  const path = `fields.${f.id}`;
  const label = `${f.question ? `${f.type} field ${f.id} (${f.question})` : `${f.type} field ${f.id}`} on page ${f.page}`;
  const given = raw !== undefined && raw !== null && raw !== "";
  if (isAutoField(f.type) || f.readOnly) {
    const fixed = isAutoField(f.type) ? autoValue(f, actor, now) : (f.defaultValue ?? "");
    // A read-only value cannot be replaced; sending it back unchanged is harmless.
    if (given && (f.type === "checkbox" ? String(isChecked(raw)) : String(raw).trim()) !== fixed) throw bad(path, `The ${label} is read-only`);
    return fixed;
  }
  if (f.type === "initials") return given ? cleanText(String(raw), path, MAX_INITIALS) || initialsOf(actor) : initialsOf(actor);
  if (f.type === "checkbox") {
    const checked = raw === undefined ? f.defaultValue === "true" : isChecked(raw);
    if (!checked && !f.optional) throw bad(path, `The required ${label} must be checked`);
    return String(checked);
  }
  const text = given ? cleanText(String(raw), path, f.maxLength ?? 1000) : raw === "" ? "" : (f.defaultValue ?? "");
  if (!text) {
    if (!f.optional) throw bad(path, `The required ${label} is empty`);
    return "";
  }
  if (f.type === "number") {
    const n = parseNumberValue(text);
    if (n === null) throw bad(path, `The ${label} must be a number`);
    return n;
  }
  if (isChoiceField(f.type) && !(f.options ?? []).includes(text)) throw bad(path, `The ${label} must be one of its options`);
  return text;
}

/** Every field of this actor gets a value or is optional; a value for anyone else's field is refused. */
export function fieldValues(fields: SignatureFieldRow[], input: SignInput, actor: Signer, hasSignature: boolean, now: Date): FieldValue[] {
  const given = new Map(input.fields.map((f) => [f.id, f.value]));
  for (const id of given.keys()) if (!fields.some((f) => f.id === id)) throw bad(`fields.${id}`, "Not one of your fields");
  return fields.map((f) => {
    if (f.type === "signature") {
      if (!hasSignature) throw bad(`fields.${f.id}`, `The signature field ${f.id} on page ${f.page} needs your signature`);
      return { id: f.id, value: "signed" };
    }
    return { id: f.id, value: valueOf(f, given.get(f.id), actor, now) };
  });
}
