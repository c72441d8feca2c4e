import "server-only";
import { randomBytes } from "node:crypto";
import { generateServiceProviderMetadata, SAML, ValidateInResponseTo, type CacheProvider } from "@node-saml/node-saml";
import { and, eq, gt } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { ssoFlows } from "@/db/schema";
import { idpMetadata } from "./saml-idp-metadata";
import type { SsoProvider } from "./sso-provider";

// Coffre as a SAML 2.0 service provider (@node-saml/node-saml): one entity per provider, whose
// entity ID is its metadata address. Assertions must be signed (the response may be too), for
// our audience, within their validity; the request IDs live in sso_flows (PostgreSQL), so any
// server process can receive the answer.

/** How long a sign-in may take at the provider, and how far clocks may disagree. */
export const FLOW_TTL_MS = 10 * 60_000;
export const CLOCK_SKEW_MS = 60_000;

const NAMEID_UNSPECIFIED = "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified";

export type SpUrls = { acs: string; metadata: string };

/** The service provider's metadata, for the identity provider's administrator. */
export function serviceProviderMetadata(urls: SpUrls): string {
  return generateServiceProviderMetadata({ issuer: urls.metadata, callbackUrl: urls.acs, wantAssertionsSigned: true, identifierFormat: NAMEID_UNSPECIFIED });
}

/**
 * A SAML instance for one request. `requestId` names the AuthnRequest to send; on the way back,
 * InResponseTo is looked up among this provider's pending flows (always, unless the provider
 * allows IdP-initiated sign-in, where a response without it is accepted).
 */
export async function samlServiceProvider(db: DbOrTx, provider: SsoProvider & { type: "saml2" }, urls: SpUrls, requestId?: string) {
  const idp = await idpMetadata(provider);
  const saml = new SAML({
    issuer: urls.metadata,
    audience: urls.metadata,
    callbackUrl: urls.acs,
    entryPoint: idp.ssoUrl,
    idpCert: idp.certificates,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    validateInResponseTo: provider.saml.idpInitiated ? ValidateInResponseTo.ifPresent : ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: FLOW_TTL_MS,
    cacheProvider: pendingRequests(db, provider.id),
    generateUniqueId: () => requestId ?? newRequestId(),
  });
  return { saml, idp };
}

/** An xs:ID: it must not start with a digit. */
export const newRequestId = () => `_${randomBytes(20).toString("hex")}`;

/**
 * node-saml's InResponseTo cache, read from sso_flows: a request is known while its flow is
 * pending and fresh. Saving and removing are ours to do (the flow is written before the browser
 * leaves, and consumed in one statement once the response is verified), so both are no-ops here.
 */
function pendingRequests(db: DbOrTx, providerId: number): CacheProvider {
  return {
    async saveAsync() {
      return null;
    },
    async getAsync(requestId: string) {
      const [flow] = await db
        .select({ createdAt: ssoFlows.createdAt })
        .from(ssoFlows)
        .where(and(eq(ssoFlows.providerId, providerId), eq(ssoFlows.requestId, requestId), eq(ssoFlows.status, "pending"), gt(ssoFlows.expiresAt, new Date())))
        .limit(1);
      return flow ? flow.createdAt.toISOString() : null;
    },
    async removeAsync() {
      return null;
    },
  };
}
