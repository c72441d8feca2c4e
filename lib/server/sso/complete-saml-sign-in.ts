import "server-only";
import { and, eq, gt } from "drizzle-orm";
import { ssoFlows } from "@/db/schema";
import { hashToken } from "../auth/tokens";
import type { Ctx } from "../context";
import { finishSsoSignIn } from "./finish-sso-sign-in";
import type { SsoIdentity } from "./provision-sso-user";
import { ssoFailure } from "./sso-failure";
import { isBoundBrowser } from "./sso-http";
import { getSsoProviderOrThrow } from "./sso-provider";

/**
 * GET /sso/(id)/saml/acs?ticket=: the browser, sent here by the assertion consumer service,
 * finishes the SAML sign-in. The ticket works once and for two minutes; the flow must have been
 * started by this browser (binding cookie), except an IdP-initiated one the provider allows.
 */
export async function completeSamlSignIn(ctx: Ctx, req: Request, providerId: number, ticket: string): Promise<Response> {
  const provider = await getSsoProviderOrThrow(ctx.db, providerId);
  const [flow] = await ctx.db
    .delete(ssoFlows)
    .where(and(eq(ssoFlows.ticketHash, hashToken(ticket)), eq(ssoFlows.status, "asserted"), gt(ssoFlows.expiresAt, new Date())))
    .returning();
  if (!flow || flow.providerId !== provider.id || provider.type !== "saml2") throw ssoFailure("sso_state", "No verified sign-in waits under this ticket (expired or already used)");
  const unsolicited = flow.bindingHash === null;
  if (unsolicited ? !provider.saml.idpInitiated : !isBoundBrowser(req, flow.bindingHash)) throw ssoFailure("sso_state", "This sign-in was started in another browser");
  return finishSsoSignIn(ctx, req, provider, flow.identity as SsoIdentity, { next: flow.next, userId: flow.userId });
}
