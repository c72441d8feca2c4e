import "server-only";
import { DOMParser } from "@xmldom/xmldom";
import { and, eq, gt } from "drizzle-orm";
import { ssoFlows, ssoReplays } from "@/db/schema";
import { hashToken, newToken } from "../auth/tokens";
import type { Ctx } from "../context";
import { assertionIdentifier, samlIdentity } from "./saml-identity";
import { CLOCK_SKEW_MS, samlServiceProvider } from "./saml-service-provider";
import { ssoFailure } from "./sso-failure";
import { redirect, safeNext, ssoUrls } from "./sso-http";
import { getSsoProviderOrThrow } from "./sso-provider";

/** A verified assertion waits this long for the browser to come and finish. */
const TICKET_TTL_MS = 2 * 60_000;
/** Assertion IDs are remembered until their NotOnOrAfter (plus skew), at most this long. */
const REPLAY_MAX_MS = 24 * 60 * 60_000;

/**
 * POST /sso/(id)/saml/acs, the assertion consumer service. The response must answer a request
 * of ours still pending (InResponseTo), unless the provider allows IdP-initiated sign-in; its
 * assertion must be signed by the provider's certificate, issued by it, for our audience, within
 * its validity, and never seen before (sso_replays). The verified identity then waits, under a
 * one-time ticket, for the browser's next request (GET on this address), where the browser
 * binding is checked: this POST comes from the provider's page, cross-site, without our cookies.
 */
export async function receiveSamlResponse(ctx: Ctx, req: Request, providerId: number, body: { SAMLResponse: string; RelayState?: string }): Promise<Response> {
  const provider = await getSsoProviderOrThrow(ctx.db, providerId);
  if (provider.type !== "saml2") throw ssoFailure("sso_state", `${provider.name} is not a SAML provider`);
  const peek = peekResponse(body.SAMLResponse);
  if (!peek.inResponseTo && !provider.saml.idpInitiated) throw ssoFailure("sso_idp_initiated", `${provider.name} does not allow IdP-initiated sign-in`);
  if (peek.assertionId && (await wasUsed(ctx, provider.id, peek.assertionId))) throw ssoFailure("sso_replay", `This assertion (${peek.assertionId}) was already used`);

  const { saml, idp } = await samlServiceProvider(ctx.db, provider, ssoUrls(req, provider.id));
  let verified: Awaited<ReturnType<typeof saml.validatePostResponseAsync>>;
  try {
    verified = await saml.validatePostResponseAsync({ SAMLResponse: body.SAMLResponse, ...(body.RelayState ? { RelayState: body.RelayState } : {}) });
  } catch (error) {
    const message = (error as Error).message;
    if (/InResponseTo/.test(message)) throw ssoFailure("sso_state", `The response answers no sign-in under way (expired or already used): ${message}`);
    throw ssoFailure("sso_assertion", `${provider.name}'s response was refused: ${message}`);
  }
  const profile = verified.profile;
  if (!profile) throw ssoFailure("sso_assertion", `${provider.name} sent no assertion`);
  if (profile.issuer !== idp.entityId) throw ssoFailure("sso_assertion", `The assertion was issued by "${profile.issuer}", not by ${idp.entityId}`);
  const assertion = assertionIdentifier(profile);
  const identity = samlIdentity(profile, provider.saml.emailsVerified);
  const ticket = newToken();
  const now = Date.now();

  await ctx.db.transaction(async (tx) => {
    const keepUntil = new Date(Math.min((assertion.notOnOrAfter?.getTime() ?? now + REPLAY_MAX_MS) + CLOCK_SKEW_MS, now + REPLAY_MAX_MS));
    const [fresh] = await tx.insert(ssoReplays).values({ providerId: provider.id, assertionId: assertion.id, expiresAt: keepUntil }).onConflictDoNothing().returning();
    if (!fresh) throw ssoFailure("sso_replay", `This assertion (${assertion.id}) was already used`);
    const waiting = { status: "asserted" as const, ticketHash: hashToken(ticket), identity, expiresAt: new Date(now + TICKET_TTL_MS) };
    if (profile.inResponseTo) {
      const [flow] = await tx
        .update(ssoFlows)
        .set(waiting)
        .where(and(eq(ssoFlows.providerId, provider.id), eq(ssoFlows.requestId, String(profile.inResponseTo)), eq(ssoFlows.status, "pending"), gt(ssoFlows.expiresAt, new Date())))
        .returning({ id: ssoFlows.id });
      if (!flow) throw ssoFailure("sso_state", "The response answers no sign-in under way (expired or already used)");
    } else {
      // IdP-initiated (allowed for this provider): no browser started it, RelayState may name a page.
      await tx.insert(ssoFlows).values({ providerId: provider.id, protocol: "saml2", bindingHash: null, next: safeNext(body.RelayState), ...waiting });
    }
  });
  return redirect(`/api/sso/${provider.id}/saml/acs?ticket=${ticket}`);
}

/**
 * What the response says before it is verified: only to refuse early what would be refused
 * anyway (an IdP-initiated response where none is allowed, an assertion already used) with the
 * right reason; node-saml and the replay insert above decide on the verified values.
 */
function peekResponse(samlResponse: string): { inResponseTo: string | null; assertionId: string | null } {
  try {
    const xml = Buffer.from(samlResponse, "base64").toString("utf8");
    if (/<!DOCTYPE/i.test(xml)) return { inResponseTo: null, assertionId: null };
    const root = new DOMParser({ onError: () => undefined }).parseFromString(xml, "text/xml").documentElement;
    const assertion = root?.getElementsByTagNameNS("urn:oasis:names:tc:SAML:2.0:assertion", "Assertion")[0];
    return { inResponseTo: root?.getAttribute("InResponseTo") || null, assertionId: assertion?.getAttribute("ID") || null };
  } catch {
    return { inResponseTo: null, assertionId: null };
  }
}

async function wasUsed(ctx: Ctx, providerId: number, assertionId: string): Promise<boolean> {
  const [used] = await ctx.db
    .select({ id: ssoReplays.assertionId })
    .from(ssoReplays)
    .where(and(eq(ssoReplays.providerId, providerId), eq(ssoReplays.assertionId, assertionId.slice(0, 512))))
    .limit(1);
  return Boolean(used);
}
