import "server-only";
import type { IdentityProviderRow } from "@/db/schema";
import { isLdapType, MATCHING } from "@/lib/contracts/identity-providers";
import { decryptSecrets } from "./secrets";

type DirectoryType = "ldap" | "adds" | "domino";

export type PersonAttributes = {
  id: string;
  login: string;
  firstname: string;
  lastname: string;
  email: string;
  telephone: string;
  company: string;
  language: string;
  enabled: string;
  editable: string;
  expiration: string;
  quota: string;
  picture: string;
};

/** A directory provider's configuration with every default filled in. Empty string = not mapped. */
export type LdapSettings = {
  providerId: number | null;
  type: DirectoryType;
  name: string;
  servers: string[];
  baseDN: string;
  bindDN: string;
  bindPassword: string;
  suffix: string;
  starttls: boolean;
  ca: string;
  timeoutMs: number;
  userFilter: string;
  groupFilter: string;
  recursive: boolean;
  /** Group attribute listing members, and the user attribute its values hold (`dn` = the entry's DN). */
  gtuIn: string;
  gtuOut: string;
  /** User attribute listing groups, and the group attribute its values hold. */
  utgIn: string;
  utgOut: string;
  person: PersonAttributes;
  group: { id: string; login: string };
  matching: number;
};

const DEFAULTS: Record<DirectoryType, Omit<LdapSettings, "providerId" | "type" | "name" | "servers" | "baseDN" | "bindDN" | "bindPassword" | "suffix" | "starttls" | "ca" | "timeoutMs" | "recursive" | "matching">> = {
  ldap: {
    userFilter: "(objectClass=inetOrgPerson)",
    groupFilter: "(|(objectClass=groupOfNames)(objectClass=groupOfUniqueNames))",
    gtuIn: "member",
    gtuOut: "dn",
    utgIn: "",
    utgOut: "",
    person: {
      id: "entryUUID",
      login: "uid",
      firstname: "givenName",
      lastname: "sn",
      email: "mail",
      telephone: "telephoneNumber",
      company: "o",
      language: "preferredLanguage",
      enabled: "",
      editable: "",
      expiration: "",
      quota: "",
      picture: "",
    },
    group: { id: "entryUUID", login: "cn" },
  },
  adds: {
    userFilter: "(&(objectCategory=person)(objectClass=user))",
    groupFilter: "(objectClass=group)",
    gtuIn: "member",
    gtuOut: "dn",
    utgIn: "",
    utgOut: "",
    person: {
      id: "objectGUID",
      login: "sAMAccountName",
      firstname: "givenName",
      lastname: "sn",
      email: "mail",
      telephone: "telephoneNumber",
      company: "company",
      language: "preferredLanguage",
      enabled: "userAccountControl",
      editable: "",
      expiration: "accountExpires",
      quota: "",
      picture: "",
    },
    group: { id: "objectGUID", login: "cn" },
  },
  domino: {
    userFilter: "(objectClass=dominoPerson)",
    groupFilter: "(objectClass=dominoGroup)",
    gtuIn: "member",
    gtuOut: "dn",
    utgIn: "",
    utgOut: "",
    person: {
      id: "dominoUNID",
      login: "uid",
      firstname: "givenName",
      lastname: "sn",
      email: "mail",
      telephone: "telephoneNumber",
      company: "o",
      language: "preferredLanguage",
      enabled: "",
      editable: "",
      expiration: "",
      quota: "",
      picture: "",
    },
    group: { id: "dominoUNID", login: "cn" },
  },
};

const PERSON_KEYS = Object.keys(DEFAULTS.ldap.person) as (keyof PersonAttributes)[];

/**
 * The settings of a directory configuration (a stored provider's, or one being tested), from the
 * contract's fields: a mapping field sent empty means "not mapped", an absent one takes the
 * type's default.
 */
export function ldapSettingsFrom(type: DirectoryType, body: Record<string, unknown>, providerId: number | null): LdapSettings {
  const defaults = DEFAULTS[type];
  const text = (key: string, fallback: string) => (typeof body[key] === "string" ? (body[key] as string).trim() : fallback);
  const person = Object.fromEntries(PERSON_KEYS.map((key) => [key, text(`service.${key}`, defaults.person[key])])) as PersonAttributes;
  const gtuIn = text("ugmap.gtu.in", defaults.gtuIn);
  return {
    providerId,
    type,
    name: String(body.name ?? ""),
    servers: Array.isArray(body.servers) ? (body.servers as string[]) : [],
    baseDN: text("baseDN", ""),
    bindDN: text("username", ""),
    bindPassword: typeof body.password === "string" ? body.password : "",
    suffix: text("suffix", "").replace(/^@/, ""),
    starttls: body.starttls === true,
    ca: typeof body.ca === "string" ? body.ca : "",
    timeoutMs: typeof body.timeout === "number" ? body.timeout : 5000,
    userFilter: text("userFilter", "") || defaults.userFilter,
    groupFilter: text("groupFilter", "") || defaults.groupFilter,
    recursive: body.recursive === true,
    gtuIn,
    gtuOut: text("ugmap.gtu.out", gtuIn ? defaults.gtuOut : "") || "dn",
    utgIn: text("ugmap.utg.in", defaults.utgIn),
    utgOut: text("ugmap.utg.out", defaults.utgOut) || "dn",
    person,
    group: { id: text("group.id", defaults.group.id), login: text("group.login", defaults.group.login) },
    matching: typeof body.matching === "number" ? body.matching : MATCHING.login,
  };
}

export async function ldapSettings(row: IdentityProviderRow): Promise<LdapSettings> {
  if (!isLdapType(row.type)) throw new Error(`Provider ${row.id} is not a directory`);
  const body = { ...(row.settings as Record<string, unknown>), ...(await decryptSecrets(row.secrets)), name: row.name, matching: row.matching };
  return ldapSettingsFrom(row.type, body, row.id);
}
