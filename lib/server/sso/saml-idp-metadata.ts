import "server-only";
import { DOMParser, type Element } from "@xmldom/xmldom";
import { ssoFailure } from "./sso-failure";
import type { SsoProvider } from "./sso-provider";

// The SAML identity provider's metadata (the provider's `discovery` address): its entity ID, its
// single sign-on address for the HTTP-Redirect binding, and the certificates it signs with.

export type IdpMetadata = { entityId: string; ssoUrl: string; certificates: string[] };

const MD = "urn:oasis:names:tc:SAML:2.0:metadata";
const DS = "http://www.w3.org/2000/09/xmldsig#";
const REDIRECT_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
const TTL_MS = 10 * 60_000;
const MAX_BYTES = 1024 * 1024;
const cache = new Map<string, { metadata: Promise<IdpMetadata>; until: number }>();

/** Fetched once per saved version of the provider and kept 10 minutes (certificates roll over). */
export function idpMetadata(provider: SsoProvider & { type: "saml2" }): Promise<IdpMetadata> {
  const hit = cache.get(provider.version);
  if (hit && hit.until > Date.now()) return hit.metadata;
  const metadata = fetchMetadata(provider.saml.discovery).catch((error: unknown) => {
    cache.delete(provider.version);
    throw ssoFailure("sso_provider", `${provider.name}'s metadata could not be read: ${(error as Error).message}`);
  });
  for (const [key, value] of cache) if (value.until <= Date.now() || key.startsWith(`${provider.id}:`)) cache.delete(key);
  cache.set(provider.version, { metadata, until: Date.now() + TTL_MS });
  return metadata;
}

async function fetchMetadata(address: string): Promise<IdpMetadata> {
  const response = await fetch(address, { redirect: "error", signal: AbortSignal.timeout(10_000), headers: { accept: "application/samlmetadata+xml, application/xml, text/xml" } });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  if (Number(response.headers.get("content-length") ?? 0) > MAX_BYTES) throw new Error("metadata larger than 1 MiB");
  const text = await response.text();
  if (text.length > MAX_BYTES) throw new Error("metadata larger than 1 MiB");
  return parseIdpMetadata(text);
}

export function parseIdpMetadata(xml: string): IdpMetadata {
  // A DOCTYPE has no place in metadata (and would open the door to entity expansion).
  if (/<!DOCTYPE/i.test(xml)) throw new Error("metadata with a DOCTYPE is refused");
  const doc = new DOMParser({ onError: (level, message) => { if (level !== "warning") throw new Error(message); } }).parseFromString(xml, "text/xml");
  const entity = elements(doc.documentElement, MD, "EntityDescriptor", true).find((e) => elements(e, MD, "IDPSSODescriptor").length > 0);
  if (!entity) throw new Error("no EntityDescriptor with an IDPSSODescriptor");
  const idp = elements(entity, MD, "IDPSSODescriptor")[0];
  const sso = elements(idp, MD, "SingleSignOnService").find((e) => e.getAttribute("Binding") === REDIRECT_BINDING);
  const ssoUrl = sso?.getAttribute("Location") ?? "";
  if (!URL.canParse(ssoUrl)) throw new Error("no SingleSignOnService for the HTTP-Redirect binding");
  const certificates = elements(idp, MD, "KeyDescriptor")
    .filter((k) => (k.getAttribute("use") ?? "signing") === "signing")
    .flatMap((k) => elements(k, DS, "X509Certificate"))
    .map((c) => (c.textContent ?? "").replace(/\s+/g, ""))
    .filter(Boolean)
    .map((base64) => `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)!.join("\n")}\n-----END CERTIFICATE-----`);
  if (certificates.length === 0) throw new Error("no signing certificate");
  const entityId = entity.getAttribute("entityID") ?? "";
  if (!entityId) throw new Error("no entityID");
  return { entityId, ssoUrl, certificates };
}

/** Elements of that name under `root` (itself included when `self`). */
function elements(root: Element | null, ns: string, name: string, self = false): Element[] {
  if (!root) return [];
  const found = Array.from(root.getElementsByTagNameNS(ns, name));
  return self && root.namespaceURI === ns && root.localName === name ? [root, ...found] : found;
}
