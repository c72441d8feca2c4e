import { z } from "zod";
import { flag, id, isoDate, listResponse } from "@/lib/contracts/common";

/**
 * Identity providers (the contract's Identity provider). The wire form uses the contract's own
 * field names, dotted ones included as flat keys (`"service.login": "uid"`,
 * `"ugmap.gtu.in": "member"`); a body may also nest them (`{service: {login: "uid"}}`), which
 * is flattened before validation. Secrets are write-only: a response shows SECRET_PLACEHOLDER
 * where one is stored, and a PUT that omits a secret or sends the placeholder keeps it.
 */

export const IDENTITY_PROVIDER_TYPES = ["ldap", "adds", "domino", "ms-graph", "oidc", "saml2"] as const;
export type IdentityProviderType = (typeof IDENTITY_PROVIDER_TYPES)[number];
/** Types whose sign-in and synchronisation go through an LDAP directory. */
export const LDAP_TYPES = ["ldap", "adds", "domino"] as const satisfies readonly IdentityProviderType[];
export const isLdapType = (t: string): t is (typeof LDAP_TYPES)[number] => (LDAP_TYPES as readonly string[]).includes(t);

/**
 * `matching` (values not shown by the contract): what the identifier a person types, and the
 * synchronisation, compare with: 0 the login attribute (`service.login`), 1 the email attribute
 * (`service.email`).
 */
export const MATCHING = { login: 0, email: 1 } as const;

export const SECRET_PLACEHOLDER = "********";
/** The write-only fields of each type (sso may append its own: keys, certificates' private parts). */
export const SECRET_FIELDS: Record<IdentityProviderType, string[]> = {
  ldap: ["password"],
  adds: ["password"],
  domino: ["password"],
  "ms-graph": ["client_secret"],
  oidc: ["client_secret"],
  saml2: [],
};

/**
 * The fields that say where a type's secrets are sent. Changing one of them without typing the
 * secret again is refused (PUT) or tests without it (test by id): a stored password never follows
 * a provider to a server it was not typed for.
 */
export const SECRET_DESTINATION_FIELDS: Record<IdentityProviderType, string[]> = {
  ldap: ["servers", "starttls", "ca"],
  adds: ["servers", "starttls", "ca"],
  domino: ["servers", "starttls", "ca"],
  "ms-graph": ["tenant", "authority", "graph_url"],
  oidc: ["discovery"],
  saml2: ["discovery"],
};

// A one-line text: no control characters (NUL is refused earlier, for every route).
const line = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((s) => !/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/.test(s), "Control and bidi characters are not allowed");
/** An LDAP attribute name (RFC 4512 descr or numeric OID), empty for "not mapped". */
const attribute = z
  .string()
  .trim()
  .max(128)
  .regex(/^(|[A-Za-z][A-Za-z0-9-]*|\d+(\.\d+)*)(;[A-Za-z0-9-]+)*$/, "Expected an LDAP attribute name");
const optionalAttribute = attribute.optional();
/** An LDAP search filter: parenthesised and balanced; values inside are the administrator's. */
const ldapFilter = line(4096).refine((s) => s === "" || (s.startsWith("(") && s.endsWith(")") && balanced(s)), "Expected an LDAP filter in parentheses, e.g. (objectClass=person)");
const secret = z.string().max(4096);
const boolish = z.union([z.boolean(), z.enum(["1", "true", "0", "false"]), z.literal(0), z.literal(1)]).transform((v) => v === true || v === "1" || v === "true" || v === 1);
const pem = z
  .string()
  .max(65_536)
  .refine((s) => s.trim() === "" || /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.test(s), "Expected PEM certificates (-----BEGIN CERTIFICATE-----)");

function balanced(s: string): boolean {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "\\") {
      i += 2;
      continue;
    }
    if (s[i] === "(") depth++;
    else if (s[i] === ")" && --depth < 0) return false;
  }
  return depth === 0;
}

/** ldap:// or ldaps:// addresses; a string may list several, separated by commas or spaces. */
const ldapUrl = z
  .string()
  .trim()
  .max(512)
  .refine((s) => /^ldaps?:\/\/[^\s/?#]+(\/)?$/i.test(s) && URL.canParse(s), "Expected ldap://host[:port] or ldaps://host[:port]");
const servers = z
  .union([z.array(z.string()), z.string()])
  .transform((v) => (Array.isArray(v) ? v : v.split(/[\s,]+/)).map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(ldapUrl).min(1, "At least one server is required").max(10));

/**
 * An http(s) address. Plain http is accepted only for a loopback host (a test double or a
 * provider on the same machine): secrets and tokens travel to it.
 */
export const providerUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((s) => {
    if (!URL.canParse(s)) return false;
    const u = new URL(s);
    if (u.protocol === "https:") return true;
    return u.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(u.hostname);
  }, "Expected an https:// address (http:// only on a loopback host)");

/** Fields every provider has. */
const common = {
  name: line(255).pipe(z.string().min(1, "A name is required")),
  enable: boolish.optional(),
  is_authn: boolish.optional(),
  is_directory: boolish.optional(),
  is_sso: boolish.optional(),
  matching: z.coerce.number().int().min(0).max(1).optional(),
};

const userMapping = {
  "service.id": optionalAttribute,
  "service.login": optionalAttribute,
  "service.firstname": optionalAttribute,
  "service.lastname": optionalAttribute,
  "service.email": optionalAttribute,
  "service.telephone": optionalAttribute,
  "service.company": optionalAttribute,
  "service.language": optionalAttribute,
  "service.enabled": optionalAttribute,
  "service.editable": optionalAttribute,
  "service.expiration": optionalAttribute,
  "service.quota": optionalAttribute,
  "service.picture": optionalAttribute,
};

/**
 * The directory types. The contract lists the advanced options for `ldap` and only `recursive`
 * for `adds` and `domino`; all three accept the same options (an Active Directory needs the same
 * mapping), with defaults per type (lib/server/identity/ldap-settings.ts).
 *
 * Group mapping: `ugmap.gtu.in` is the group attribute listing its members (member, uniqueMember,
 * memberUid) and `ugmap.gtu.out` the user attribute those values hold (dn, uid); `ugmap.utg.in`
 * the user attribute listing groups (memberOf) and `ugmap.utg.out` the group attribute those
 * values hold (dn, cn). The contract names "the service.{id, login}" twice; the second pair,
 * for groups, is written `group.id` and `group.login` here.
 */
const directoryFields = {
  ...common,
  suffix: line(255).optional(),
  username: line(1024).optional(),
  password: secret.optional(),
  baseDN: line(1024).pipe(z.string().min(1, "A base DN is required")),
  servers,
  recursive: boolish.optional(),
  userFilter: ldapFilter.optional(),
  groupFilter: ldapFilter.optional(),
  "ugmap.utg.in": optionalAttribute,
  "ugmap.utg.out": optionalAttribute,
  "ugmap.gtu.in": optionalAttribute,
  "ugmap.gtu.out": optionalAttribute,
  ...userMapping,
  "group.id": optionalAttribute,
  "group.login": optionalAttribute,
  /** Beyond the contract: upgrade ldap:// with StartTLS, and the CA (PEM) to trust for TLS. */
  starttls: boolish.optional(),
  ca: pem.optional(),
  /** Milliseconds for connecting and for each operation (default 5000). */
  timeout: z.coerce.number().int().min(100).max(60_000).optional(),
};

export const ldapProviderBody = z.object({ type: z.literal("ldap"), ...directoryFields });
export const addsProviderBody = z.object({ type: z.literal("adds"), ...directoryFields });
export const dominoProviderBody = z.object({ type: z.literal("domino"), ...directoryFields });

/**
 * Microsoft Graph: the contract names `tenant`; signing to the token endpoint also needs an
 * application (`client_id`, `client_secret`). `authority` and `graph_url` default to Microsoft's
 * (https://login.microsoftonline.com, https://graph.microsoft.com).
 */
export const msGraphProviderBody = z.object({
  type: z.literal("ms-graph"),
  ...common,
  tenant: line(255).pipe(z.string().regex(/^[A-Za-z0-9.-]+$/, "Expected a tenant id or domain")),
  client_id: line(255).pipe(z.string().min(1, "A client id is required")),
  client_secret: secret.optional(),
  authority: providerUrl.optional(),
  graph_url: providerUrl.optional(),
});

/** OpenID Connect: `discovery` is the issuer or its /.well-known/openid-configuration address. */
export const oidcProviderBody = z.object({
  type: z.literal("oidc"),
  ...common,
  client_id: line(255).pipe(z.string().min(1, "A client id is required")),
  client_secret: secret.optional(),
  discovery: providerUrl,
  provisioning: boolish.optional(),
  /** Days after which an account the provider no longer presents is deactivated; 0 = never. */
  purgeTime: z.coerce.number().int().min(0).max(36_500).optional(),
  /** Beyond the contract (sso): the scopes asked for, space-separated; `openid email profile` when absent. */
  scope: line(1024).pipe(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/, "Expected space-separated scopes")).optional(),
});

/** SAML 2.0: `discovery` is the identity provider's metadata address. */
export const saml2ProviderBody = z.object({
  type: z.literal("saml2"),
  ...common,
  discovery: providerUrl,
  provisioning: boolish.optional(),
  purgeTime: z.coerce.number().int().min(0).max(36_500).optional(),
  /** Beyond the contract (sso): accept IdP-initiated sign-in (a response nobody asked for); refused unless true. */
  idp_initiated: boolish.optional(),
  /**
   * Beyond the contract (sso): this provider's email addresses are verified ones, so an address
   * may match an existing account (issue 25); off unless true, as SAML cannot say so itself.
   */
  emails_verified: boolish.optional(),
});

/** Nested objects in a body become the contract's flat dotted keys. */
export function flattenProviderBody(input: unknown): unknown {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return input;
  const out: Record<string, unknown> = {};
  const walk = (value: Record<string, unknown>, prefix: string, depth: number) => {
    for (const [key, inner] of Object.entries(value)) {
      const name = prefix ? `${prefix}.${key}` : key;
      // Only the mapping groups nest; anything else stays as given (and is validated as such).
      if (depth < 3 && inner !== null && typeof inner === "object" && !Array.isArray(inner) && /^(service|ugmap|group)(\.|$)/.test(name)) walk(inner as Record<string, unknown>, name, depth + 1);
      else out[name] = inner;
    }
  };
  walk(input as Record<string, unknown>, "", 0);
  return out;
}

const providerUnion = z.discriminatedUnion("type", [ldapProviderBody, addsProviderBody, dominoProviderBody, msGraphProviderBody, oidcProviderBody, saml2ProviderBody]);

/** POST /identity/provider and POST /identity/provider/test: a whole configuration, per type. */
export const createIdentityProviderBody = z.preprocess(flattenProviderBody, providerUnion);
export type IdentityProviderInput = z.output<typeof providerUnion>;

/**
 * POST /identity/provider/test also takes `id` (beside the configuration being edited): secrets
 * the form leaves out or sends as the placeholder are then taken from that stored provider.
 */
export const testIdentityProviderBody = z.preprocess(
  flattenProviderBody,
  z.object({ id: z.union([z.string(), z.number()]).pipe(z.coerce.number<string | number>().int().positive().max(2_147_483_647)).optional() }).loose(),
);

/**
 * PUT /identity/provider/(id): any subset of the fields; the result (stored fields merged with
 * these) is validated as a whole against the provider's type, which cannot change. `null` clears
 * an optional field.
 */
export const updateIdentityProviderBody = z.preprocess(flattenProviderBody, z.record(z.string(), z.unknown()));

export const identityProviderParams = z.object({ providerId: id });

/**
 * The contract's Identity provider with its type's fields; secrets as SECRET_PLACEHOLDER when
 * stored (absent otherwise). `status` and the last synchronisation are for the console.
 */
export const identityProviderResponse = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.enum(IDENTITY_PROVIDER_TYPES),
    enable: z.boolean(),
    is_authn: z.boolean(),
    is_directory: z.boolean(),
    is_sso: z.boolean(),
    matching: z.number().int(),
    /** `disabled`, `never_synced`, `ok` or `error` (last synchronisation). */
    status: z.string(),
    last_sync: isoDate.nullable(),
    last_sync_status: z.string().nullable(),
    last_sync_result: z.unknown().nullable(),
    creation_date: isoDate,
    modification_date: isoDate,
  })
  .loose();
export type IdentityProviderResponse = z.infer<typeof identityProviderResponse>;
export const identityProviderListResponse = listResponse(identityProviderResponse);

/** `details`: answer the outcome as an object (below) instead of the contract's bare boolean. */
export const testIdentityProviderQuery = z.object({ details: flag });

/** A failed test, under ?details=1: the reason in `details.reason` (and `error`), a short `code`, where it failed. */
export const testFailureResponse = z.object({
  result: z.literal(false),
  error: z.string(),
  code: z.string(),
  details: z.object({ reason: z.string(), server: z.string().optional(), stage: z.string().optional() }).loose(),
});
/** The outcome under ?details=1: `{result: true}` or the failure. */
export const testDetailsResponse = z.union([z.object({ result: z.literal(true) }), testFailureResponse]);
export type TestDetailsResponse = z.infer<typeof testDetailsResponse>;
/**
 * POST /identity/provider/test: `true` or `false` as the contract says (a failure's reason and code
 * in the X-Coffre-Test-Reason and X-Coffre-Test-Code headers), or the object under ?details=1.
 */
export const testIdentityProviderResponse = z.union([z.boolean(), testDetailsResponse]);
/** The headers of a failed test's bare `false`. */
export const TEST_REASON_HEADER = "X-Coffre-Test-Reason";
export const TEST_CODE_HEADER = "X-Coffre-Test-Code";

/** POST /identity/provider/(id)/sync: the job that will run (202). */
export const syncIdentityProviderResponse = z.object({ job_id: z.number().int(), provider_id: z.string(), status: z.string() });
