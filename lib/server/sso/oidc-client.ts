import "server-only";
import * as client from "openid-client";
import type { SsoIdentity } from "./provision-sso-user";
import { ssoFailure } from "./sso-failure";
import type { OidcSettings, SsoProvider } from "./sso-provider";

// OpenID Connect with openid-client 6: discovery, authorization code with PKCE (S256), `state`
// and `nonce` checked, the ID token validated (signature, issuer, audience, expiry, nonce), then
// userinfo for the claims the ID token leaves out.

const DISCOVERY_TTL_MS = 10 * 60_000;
const TIMEOUT_S = 10;
const cache = new Map<string, { config: Promise<client.Configuration>; until: number }>();

/** The provider's configuration from its discovery document, kept 10 minutes per saved version. */
export function oidcConfiguration(provider: SsoProvider & { type: "oidc" }): Promise<client.Configuration> {
  const hit = cache.get(provider.version);
  if (hit && hit.until > Date.now()) return hit.config;
  const config = discover(provider.oidc).catch((error: unknown) => {
    cache.delete(provider.version);
    throw ssoFailure("sso_provider", `${provider.name} could not be reached for discovery: ${(error as Error).message}`);
  });
  for (const [key, value] of cache) if (value.until <= Date.now() || key.startsWith(`${provider.id}:`)) cache.delete(key);
  cache.set(provider.version, { config, until: Date.now() + DISCOVERY_TTL_MS });
  return config;
}

async function discover(settings: OidcSettings): Promise<client.Configuration> {
  // Plain http is only accepted for loopback hosts (lib/contracts/identity-providers.ts, providerUrl).
  const insecure = new URL(settings.discovery).protocol === "http:";
  const options = { timeout: TIMEOUT_S, ...(insecure ? { execute: [client.allowInsecureRequests] } : {}) };
  const discovered = await client.discovery(new URL(settings.discovery), settings.clientId, undefined, client.None(), options);
  const server = discovered.serverMetadata();
  const config = new client.Configuration(server, settings.clientId, settings.clientSecret ?? undefined, clientAuthentication(server, settings.clientSecret));
  config.timeout = TIMEOUT_S;
  if (insecure) client.allowInsecureRequests(config);
  return config;
}

/** client_secret_basic, the OpenID default, unless the provider only takes client_secret_post; none for a public client. */
function clientAuthentication(server: client.ServerMetadata, secret: string | null): client.ClientAuth {
  if (!secret) return client.None();
  const supported = server.token_endpoint_auth_methods_supported;
  if (supported && !supported.includes("client_secret_basic") && supported.includes("client_secret_post")) return client.ClientSecretPost(secret);
  return client.ClientSecretBasic(secret);
}

/** What a new sign-in keeps (the verifier and nonce) and the address the browser is sent to. */
export async function oidcAuthorization(provider: SsoProvider & { type: "oidc" }, redirectUri: string) {
  const config = await oidcConfiguration(provider);
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: provider.oidc.scope,
    response_type: "code",
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
  });
  return { url, state, nonce, codeVerifier };
}

/**
 * The provider's answer at the redirect URI, exchanged for tokens with the flow's verifier; the
 * state was matched by the caller (it found the flow by it), the nonce is matched here.
 */
export async function oidcIdentity(
  provider: SsoProvider & { type: "oidc" },
  callbackUrl: URL,
  flow: { state: string; nonce: string; codeVerifier: string },
): Promise<SsoIdentity> {
  const config = await oidcConfiguration(provider);
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    tokens = await client.authorizationCodeGrant(config, callbackUrl, { pkceCodeVerifier: flow.codeVerifier, expectedState: flow.state, expectedNonce: flow.nonce, idTokenExpected: true });
  } catch (error) {
    if (comparedClaim(error) === "nonce") throw ssoFailure("sso_nonce", `${provider.name} returned an ID token for another sign-in (nonce mismatch)`);
    throw ssoFailure("sso_provider", `${provider.name} refused the sign-in: ${(error as Error).message}`);
  }
  const idToken = tokens.claims();
  if (!idToken?.sub) throw ssoFailure("sso_provider", `${provider.name} returned no ID token subject`);
  let claims: Record<string, unknown> = { ...idToken };
  const needsUserinfo = !claims.email || (!claims.given_name && !claims.family_name && !claims.name);
  if (needsUserinfo && config.serverMetadata().userinfo_endpoint) {
    try {
      claims = { ...(await client.fetchUserInfo(config, tokens.access_token, idToken.sub)), ...claims };
    } catch (error) {
      throw ssoFailure("sso_provider", `${provider.name} refused the userinfo request: ${(error as Error).message}`);
    }
  }
  return identityFromClaims(String(idToken.sub), claims);
}

/** The claim a failed comparison names (openid-client wraps oauth4webapi's error in its cause). */
function comparedClaim(error: unknown): string | undefined {
  for (let e = error as { cause?: unknown; claim?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (typeof e.claim === "string") return e.claim;
  }
  return undefined;
}

function identityFromClaims(subject: string, claims: Record<string, unknown>): SsoIdentity {
  const text = (key: string) => cleanText(claims[key]);
  let firstname = text("given_name");
  let lastname = text("family_name");
  if (!firstname && !lastname) [firstname, lastname] = splitName(text("name"));
  const email = text("email");
  return {
    subject,
    email: email && email.includes("@") ? email : null,
    // Only a provider that says so: an absent claim is not a verified address (issue 25, finding 1).
    emailVerified: claims.email_verified === true,
    login: text("preferred_username") || null,
    firstname,
    lastname,
  };
}

/** A value from a provider as one line of text: no control or bidi characters, 255 at most. */
export function cleanText(value: unknown): string {
  const raw = Array.isArray(value) ? value[0] : value;
  if (typeof raw !== "string") return "";
  return raw
    .replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069\u200b\ufeff]/g, "")
    .trim()
    .slice(0, 255);
}

export function splitName(full: string): [string, string] {
  const at = full.lastIndexOf(" ");
  return at > 0 ? [full.slice(0, at), full.slice(at + 1)] : [full, ""];
}
