import "server-only";
import type { IdentityProviderRow } from "@/db/schema";
import {
  createIdentityProviderBody,
  type IdentityProviderInput,
  type IdentityProviderResponse,
  type IdentityProviderType,
  isLdapType,
  SECRET_DESTINATION_FIELDS,
  SECRET_FIELDS,
  SECRET_PLACEHOLDER,
} from "@/lib/contracts/identity-providers";
import { AppError } from "../errors";
import { decryptSecrets, encryptSecrets } from "./secrets";

const COMMON_KEYS = ["type", "name", "enable", "is_authn", "is_directory", "is_sso", "matching"] as const;

/** What a type is when the body does not say: directories find people, SSO providers sign them in. */
export function typeDefaults(type: IdentityProviderType) {
  if (isLdapType(type)) return { isAuthn: true, isDirectory: true, isSso: false };
  if (type === "ms-graph") return { isAuthn: false, isDirectory: true, isSso: false };
  return { isAuthn: true, isDirectory: false, isSso: true };
}

/** A validated configuration split into columns, non-secret settings and secrets. */
export function splitProvider(input: IdentityProviderInput) {
  const defaults = typeDefaults(input.type);
  const settings: Record<string, unknown> = {};
  const secrets: Record<string, string> = {};
  const secretFields = SECRET_FIELDS[input.type];
  for (const [key, value] of Object.entries(input)) {
    if ((COMMON_KEYS as readonly string[]).includes(key) || value === undefined) continue;
    if (secretFields.includes(key)) {
      if (typeof value === "string" && value !== "") secrets[key] = value;
    } else settings[key] = value;
  }
  return {
    columns: {
      name: input.name,
      type: input.type,
      enable: input.enable ?? true,
      isAuthn: input.is_authn ?? defaults.isAuthn,
      isDirectory: input.is_directory ?? defaults.isDirectory,
      isSso: input.is_sso ?? defaults.isSso,
      matching: input.matching ?? 0,
    },
    settings,
    secrets,
  };
}

/** The whole stored configuration as a body (secrets included): what PUT merges into. */
export async function storedBody(row: IdentityProviderRow): Promise<Record<string, unknown>> {
  return {
    ...(row.settings as Record<string, unknown>),
    ...(await decryptSecrets(row.secrets)),
    type: row.type,
    name: row.name,
    enable: row.enable,
    is_authn: row.isAuthn,
    is_directory: row.isDirectory,
    is_sso: row.isSso,
    matching: row.matching,
  };
}

/**
 * A body merged over a stored configuration: omitted fields and secrets sent as the placeholder
 * keep their value, `null` clears an optional field; the type never changes. The result is
 * validated as a whole, so a partial update cannot leave a provider its type would refuse.
 */
export function mergeProviderBody(stored: Record<string, unknown>, changes: Record<string, unknown>, type: IdentityProviderType): IdentityProviderInput {
  if (changes.type !== undefined && changes.type !== type) {
    throw new AppError("invalid_request", "Invalid request: type cannot change", [{ path: "type", message: `This provider is of type ${type}; create another provider for another type` }]);
  }
  const merged: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(changes)) {
    if (key === "id") continue;
    if (SECRET_FIELDS[type].includes(key) && value === SECRET_PLACEHOLDER) continue;
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  merged.type = type;
  const input = createIdentityProviderBody.parse(merged) as IdentityProviderInput;
  const moved = movedDestination(type, createIdentityProviderBody.safeParse(stored).data as Record<string, unknown> | undefined, input as Record<string, unknown>);
  if (moved) {
    const kept = SECRET_FIELDS[type].filter((key) => stored[key] !== undefined && merged[key] === stored[key] && !(typeof changes[key] === "string" && changes[key] !== SECRET_PLACEHOLDER));
    if (kept.length) {
      throw new AppError(
        "invalid_request",
        `Invalid request: type ${kept.join(" and ")} again when ${moved} changes`,
        kept.map((key) => ({ path: key, message: `Type it again: the stored value is not sent to a new ${moved}` })),
      );
    }
  }
  return input;
}

/** The first destination field (servers, CA, token endpoint...) that differs, or null. */
function movedDestination(type: IdentityProviderType, before: Record<string, unknown> | undefined, after: Record<string, unknown>): string | null {
  if (!before) return null;
  // Unset, false, "" and [] all mean "none" (a form sends starttls: false where the row has nothing).
  const norm = (v: unknown) => (v === undefined || v === null || v === false || v === "" || (Array.isArray(v) && v.length === 0) ? null : v);
  const same = (a: unknown, b: unknown) => JSON.stringify(norm(a)) === JSON.stringify(norm(b));
  return SECRET_DESTINATION_FIELDS[type].find((key) => !same(before[key], after[key])) ?? null;
}

/** Secrets a form left out or sent as the placeholder, taken from a stored provider of the same type. */
export async function fillStoredSecrets(input: Record<string, unknown>, row: IdentityProviderRow | null): Promise<Record<string, unknown>> {
  if (!row || row.type !== input.type) return input;
  // Never towards another server than the one the secret was typed for.
  const parsed = createIdentityProviderBody.safeParse(input);
  const stored = createIdentityProviderBody.safeParse(await storedBody(row));
  if (!parsed.success || !stored.success || movedDestination(row.type, stored.data as Record<string, unknown>, parsed.data as Record<string, unknown>)) return input;
  const secrets = await decryptSecrets(row.secrets);
  const out = { ...input };
  for (const key of SECRET_FIELDS[row.type]) {
    if ((out[key] === undefined || out[key] === SECRET_PLACEHOLDER) && secrets[key] !== undefined) out[key] = secrets[key];
  }
  return out;
}

export const encryptProviderSecrets = encryptSecrets;

/** The one serializer of the contract's Identity provider: secrets never leave, only the placeholder. */
export async function presentIdentityProvider(row: IdentityProviderRow): Promise<IdentityProviderResponse> {
  const stored = await decryptSecrets(row.secrets);
  const secretFields = SECRET_FIELDS[row.type];
  const settings = Object.fromEntries(Object.entries(row.settings as Record<string, unknown>).filter(([key]) => !secretFields.includes(key)));
  const placeholders = Object.fromEntries(secretFields.filter((key) => stored[key] !== undefined).map((key) => [key, SECRET_PLACEHOLDER]));
  const hasSecrets = Object.fromEntries(secretFields.map((key) => [`has_${key}`, stored[key] !== undefined]));
  return {
    id: String(row.id),
    name: row.name,
    type: row.type,
    enable: row.enable,
    is_authn: row.isAuthn,
    is_directory: row.isDirectory,
    is_sso: row.isSso,
    matching: row.matching,
    ...settings,
    ...placeholders,
    ...hasSecrets,
    status: !row.enable ? "disabled" : row.lastSyncStatus ?? (row.isDirectory ? "never_synced" : "ok"),
    last_sync: row.lastSyncAt?.toISOString() ?? null,
    last_sync_status: row.lastSyncStatus ?? null,
    last_sync_result: row.lastSyncResult ?? null,
    creation_date: row.createdAt.toISOString(),
    modification_date: row.updatedAt.toISOString(),
  };
}
