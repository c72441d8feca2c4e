import "server-only";
import type { Entry } from "ldapts";
import { LANGUAGES } from "@/lib/contracts/users";
import type { LdapSettings } from "./ldap-settings";

/** A person as the directory describes them, in platform terms (undefined = not mapped). */
export type DirectoryPerson = {
  externalId: string;
  dn: string;
  login: string;
  firstname: string;
  lastname: string;
  email: string;
  phone: string;
  organization: string;
  language: string;
  active: boolean;
  canEditOptions?: boolean;
  expire?: Date | null;
  quota?: number | null;
};

export type DirectoryGroup = { externalId: string; dn: string; login: string };

type Value = string | Buffer;

/** Every value of an attribute (names compare case-insensitively; `dn` is the entry's DN). */
export function values(entry: Entry, attribute: string): Value[] {
  if (!attribute) return [];
  if (attribute.toLowerCase() === "dn") return [entry.dn];
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  if (!key) return [];
  const v = entry[key] as Value | Value[];
  return Array.isArray(v) ? v : [v];
}

export function text(entry: Entry, attribute: string): string {
  const [v] = values(entry, attribute);
  if (v === undefined) return "";
  return (typeof v === "string" ? v : v.toString("utf8")).trim();
}

/** An identifier as text: AD's objectGUID bytes become its usual GUID form, other bytes hex. */
export function identifier(entry: Entry, attribute: string): string {
  const [v] = values(entry, attribute);
  if (v === undefined) return "";
  if (typeof v === "string") return v.trim();
  if (v.length === 16) {
    const h = v.toString("hex");
    const swap = (s: string) => s.match(/../g)!.reverse().join("");
    return `${swap(h.slice(0, 8))}-${swap(h.slice(8, 12))}-${swap(h.slice(12, 16))}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
  return v.toString("hex");
}

/** DNs compare without case and without spaces around separators. */
export const normalizeDn = (dn: string) => dn.trim().replace(/\s*([,=+])\s*/g, "$1").toLowerCase();

/** The attributes to ask for a person (mapping, membership, identifier). */
export function personAttributes(s: LdapSettings): string[] {
  const mapped = Object.values(s.person).filter(Boolean);
  const extra = [s.utgIn, s.gtuOut !== "dn" ? s.gtuOut : ""].filter(Boolean);
  return [...new Set([...mapped, ...extra])];
}

export function groupAttributes(s: LdapSettings): string[] {
  return [...new Set([s.group.id, s.group.login, s.gtuIn, s.utgIn, s.utgOut !== "dn" ? s.utgOut : ""].filter(Boolean))];
}

function truthy(v: string): boolean | undefined {
  if (v === "") return undefined;
  if (/^(true|yes|1|on|enabled|active)$/i.test(v)) return true;
  if (/^(false|no|0|off|disabled|inactive)$/i.test(v)) return false;
  return undefined;
}

/**
 * Whether the account is enabled: Active Directory's userAccountControl has bit 2 for disabled;
 * other attributes are read as a yes/no. Unmapped or unreadable: enabled.
 */
function enabled(s: LdapSettings, raw: string): boolean {
  if (!raw) return true;
  if (s.person.enabled.toLowerCase() === "useraccountcontrol" && /^\d+$/.test(raw)) return (Number(raw) & 2) === 0;
  return truthy(raw) ?? true;
}

/**
 * An expiry date from the usual encodings: AD's accountExpires (100 ns since 1601; 0 and the
 * maximum mean never), LDAP generalized time (20260101000000Z), shadowExpire (days since 1970).
 */
export function parseExpiration(raw: string): Date | null | undefined {
  if (!raw) return undefined;
  if (/^\d{14}(\.\d+)?Z$/.test(raw)) {
    const m = raw.match(/^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})/)!;
    return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]));
  }
  if (/^-?\d+$/.test(raw)) {
    const n = BigInt(raw);
    if (n <= 0n || n >= 9223372036854775807n) return null;
    if (n > 100_000_000_000n) return new Date(Number(n / 10_000n - 11_644_473_600_000n));
    return new Date(Number(n) * 86_400_000);
  }
  return undefined;
}

function language(raw: string): string {
  const code = raw.toLowerCase().split(/[-_;,\s]/)[0];
  if (code === "zh") return "cn";
  return (LANGUAGES as readonly string[]).includes(code) ? code : "auto";
}

/** A directory entry in platform terms; null when it lacks an identifier or a login. */
export function toPerson(s: LdapSettings, entry: Entry): DirectoryPerson | null {
  const externalId = identifier(entry, s.person.id) || (s.person.id ? "" : normalizeDn(entry.dn));
  const login = text(entry, s.person.login);
  if (!externalId || !login) return null;
  const person: DirectoryPerson = {
    externalId,
    dn: entry.dn,
    login,
    firstname: text(entry, s.person.firstname).slice(0, 255),
    lastname: text(entry, s.person.lastname).slice(0, 255),
    email: text(entry, s.person.email).slice(0, 1024),
    phone: text(entry, s.person.telephone).slice(0, 255),
    organization: text(entry, s.person.company).slice(0, 255),
    language: language(text(entry, s.person.language)),
    active: enabled(s, text(entry, s.person.enabled)),
  };
  if (s.person.editable) person.canEditOptions = truthy(text(entry, s.person.editable)) ?? true;
  if (s.person.expiration) person.expire = parseExpiration(text(entry, s.person.expiration)) ?? null;
  if (s.person.quota) {
    const q = text(entry, s.person.quota);
    person.quota = /^\d+$/.test(q) && Number.isSafeInteger(Number(q)) ? Number(q) : null;
  }
  return person;
}

export function toGroup(s: LdapSettings, entry: Entry): DirectoryGroup | null {
  const externalId = identifier(entry, s.group.id) || (s.group.id ? "" : normalizeDn(entry.dn));
  const login = text(entry, s.group.login).slice(0, 255);
  if (!externalId || !login) return null;
  return { externalId, dn: entry.dn, login };
}
