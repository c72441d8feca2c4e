import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { identityProviders, type IdentityProviderRow } from "@/db/schema";
import { AppError } from "../errors";
import { decryptSecrets } from "../identity/secrets";

/** An enabled OpenID Connect or SAML 2.0 provider, its settings read with their defaults. */
export type SsoProvider = {
  id: number;
  name: string;
  /** 0: match accounts by login, 1: by email (lib/contracts/identity-providers.ts, MATCHING). */
  matching: number;
  /** Creates accounts on first sign-in (just in time); defaults to on. */
  provisioning: boolean;
  /** Days without a sign-in after which the account is deactivated; 0 never. */
  purgeTime: number;
  /** Changes each time the administrator saves the provider (caches key on it). */
  version: string;
} & ({ type: "oidc"; oidc: OidcSettings } | { type: "saml2"; saml: SamlSettings });

export type OidcSettings = { discovery: string; clientId: string; clientSecret: string | null; scope: string };
/** `emailsVerified`: the provider's addresses are verified ones (settings `emails_verified`, default off). */
export type SamlSettings = { discovery: string; idpInitiated: boolean; emailsVerified: boolean };

export const DEFAULT_OIDC_SCOPE = "openid email profile";

/**
 * The provider a sign-in names. Unknown, disabled and non-SSO providers (or those whose `is_sso`
 * is off) are all "not found":
 * the sign-in pages are public, and they must not tell a visitor which providers exist.
 */
export async function getSsoProviderOrThrow(db: DbOrTx, providerId: number): Promise<SsoProvider> {
  const [row] = await db.select().from(identityProviders).where(eq(identityProviders.id, providerId)).limit(1);
  if (!row || !row.enable || !row.isSso || (row.type !== "oidc" && row.type !== "saml2")) throw new AppError("not_found", "No such sign-in provider");
  return readSsoProvider(row);
}

export async function readSsoProvider(row: IdentityProviderRow): Promise<SsoProvider> {
  const settings = row.settings as Record<string, unknown>;
  const common = {
    id: row.id,
    name: row.name,
    matching: row.matching,
    provisioning: settings.provisioning !== false,
    purgeTime: typeof settings.purgeTime === "number" ? settings.purgeTime : 0,
    version: `${row.id}:${row.updatedAt.getTime()}`,
  };
  const discovery = String(settings.discovery ?? "");
  if (row.type === "oidc") {
    const secrets = await decryptSecrets(row.secrets);
    const scope = typeof settings.scope === "string" && settings.scope.trim() ? settings.scope.trim() : DEFAULT_OIDC_SCOPE;
    return {
      ...common,
      type: "oidc",
      oidc: { discovery, clientId: String(settings.client_id ?? ""), clientSecret: secrets.client_secret ?? null, scope: scope.split(" ").includes("openid") ? scope : `openid ${scope}` },
    };
  }
  if (row.type === "saml2") return { ...common, type: "saml2", saml: { discovery, idpInitiated: settings.idp_initiated === true, emailsVerified: settings.emails_verified === true } };
  throw new AppError("not_found", "No such sign-in provider");
}
