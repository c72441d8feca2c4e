import "server-only";
import { ssoFlows } from "@/db/schema";
import { hashToken } from "../auth/tokens";
import type { Ctx } from "../context";
import { oidcAuthorization } from "./oidc-client";
import { FLOW_TTL_MS, newRequestId, samlServiceProvider } from "./saml-service-provider";
import { browserBinding, redirect, safeNext, ssoUrls, usesSecureCookies } from "./sso-http";
import { getSsoProviderOrThrow, type SsoProvider } from "./sso-provider";

/**
 * GET /sso/(id)/login: sends the browser to the provider. OIDC: authorization code with PKCE
 * (S256), a fresh `state` and `nonce`; SAML: an AuthnRequest (HTTP-Redirect binding). The flow
 * is kept in sso_flows, bound to this browser by its binding cookie, for 10 minutes.
 */
export async function startSsoLogin(ctx: Ctx, req: Request, providerId: number, next: string | undefined): Promise<Response> {
  const provider = await getSsoProviderOrThrow(ctx.db, providerId);
  const { url, cookie } = await beginSsoFlow(ctx, req, provider, { next: safeNext(next), userId: null });
  return redirect(url, [cookie]);
}

/**
 * A flow under way: the provider's address the browser goes to, and the binding cookie that
 * ties the flow to this browser. `userId`: the signed-in account connecting this provider
 * (start-sso-connect.ts), null for a sign-in.
 */
export async function beginSsoFlow(ctx: Ctx, req: Request, provider: SsoProvider, flow: { next: string; userId: number | null }): Promise<{ url: string; cookie: string }> {
  const binding = browserBinding(req, await usesSecureCookies(req));
  const urls = ssoUrls(req, provider.id);
  const common = { providerId: provider.id, bindingHash: binding.hash, next: flow.next, userId: flow.userId, expiresAt: new Date(Date.now() + FLOW_TTL_MS) };

  if (provider.type === "oidc") {
    const { url, state, nonce, codeVerifier } = await oidcAuthorization(provider, urls.callback);
    await ctx.db.insert(ssoFlows).values({ ...common, protocol: "oidc", stateHash: hashToken(state), codeVerifier, nonce });
    return { url: url.href, cookie: binding.cookie };
  }

  const requestId = newRequestId();
  const { saml } = await samlServiceProvider(ctx.db, provider, urls, requestId);
  const url = await saml.getAuthorizeUrlAsync("", undefined, {});
  await ctx.db.insert(ssoFlows).values({ ...common, protocol: "saml2", requestId });
  return { url, cookie: binding.cookie };
}
