import "server-only";
import { and, eq, gt } from "drizzle-orm";
import { ssoFlows } from "@/db/schema";
import { hashToken } from "../auth/tokens";
import type { Ctx } from "../context";
import { finishSsoSignIn } from "./finish-sso-sign-in";
import { oidcIdentity } from "./oidc-client";
import { signInFailed, ssoFailure } from "./sso-failure";
import { isBoundBrowser, ssoUrls } from "./sso-http";
import { getSsoProviderOrThrow } from "./sso-provider";

/**
 * GET /sso/(id)/callback, the OpenID Connect redirect URI. The flow is found by its `state` and
 * spent at once (a callback URL works once); it must have been started by this browser (binding
 * cookie) for this provider. Then the code is exchanged with the PKCE verifier, the ID token is
 * validated with the flow's nonce, and the account is signed in.
 */
export async function completeOidcSignIn(ctx: Ctx, req: Request, providerId: number): Promise<Response> {
  const provider = await getSsoProviderOrThrow(ctx.db, providerId);
  if (provider.type !== "oidc") throw ssoFailure("sso_state", `${provider.name} is not an OpenID Connect provider`);
  const received = new URL(req.url);
  const state = received.searchParams.get("state") ?? "";
  if (!state || state.length > 512) throw ssoFailure("sso_state", "The provider's answer carries no state");

  const [flow] = await ctx.db
    .delete(ssoFlows)
    .where(and(eq(ssoFlows.stateHash, hashToken(state)), eq(ssoFlows.protocol, "oidc"), gt(ssoFlows.expiresAt, new Date())))
    .returning();
  if (!flow || flow.providerId !== provider.id) throw ssoFailure("sso_state", "No sign-in under way matches this state (expired, already used, or for another provider)");
  if (!isBoundBrowser(req, flow.bindingHash)) throw ssoFailure("sso_state", "This sign-in was started in another browser");

  // The redirect URI the provider was given, with the parameters it sent back.
  const callbackUrl = new URL(ssoUrls(req, provider.id).callback);
  callbackUrl.search = received.search;
  let identity;
  try {
    identity = await oidcIdentity(provider, callbackUrl, { state, nonce: flow.nonce!, codeVerifier: flow.codeVerifier! });
  } catch (error) {
    // Declined or failed while connecting the provider from the account page: back to that page.
    if (flow.userId !== null) return signInFailed(ctx, provider.id, error, "/account");
    throw error;
  }
  return finishSsoSignIn(ctx, req, provider, identity, { next: flow.next, userId: flow.userId });
}
