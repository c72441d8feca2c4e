import "server-only";
import type { ReauthInput } from "@/lib/contracts/account";
import { reauthenticate } from "../auth/reauthenticate";
import type { AuthedCtx } from "../context";
import { AppError, forbidden } from "../errors";
import { findUserLink } from "../identity/identity-link";
import { beginSsoFlow } from "./start-sso-login";
import { getSsoProviderOrThrow } from "./sso-provider";

/**
 * POST /account/identity: the signed-in person connects a single sign-on provider to their own
 * account, the one way (with an administrator's link) an existing account is linked to an
 * outside identity it was not created by (issue 25, finding 1). The re-authentication of every
 * change of what protects the account confirms it is them; the flow remembers the account and is bound to this browser; the provider's callback
 * then links the identity it proves (connect-sso-identity.ts) and comes back to /account.
 * The answer carries the provider's address (the page sends the browser there) and the binding cookie.
 */
export async function startSsoConnect(ctx: AuthedCtx, req: Request, input: { provider_id: number } & ReauthInput): Promise<Response> {
  const { user, realUser } = ctx.actor;
  // Acting as someone (AsId) links nothing to their account: only its owner, or an administrator in the console.
  if (realUser.id !== user.id) throw forbidden("Connect a sign-in provider to your own account only");
  await reauthenticate(ctx, input);
  const provider = await getSsoProviderOrThrow(ctx.db, input.provider_id);
  const current = await findUserLink(ctx.db, user.id);
  if (current) throw new AppError("conflict", `This account is already linked to ${current.provider.name}; an administrator can remove that link`);
  const { url, cookie } = await beginSsoFlow(ctx, req, provider, { next: "/account", userId: user.id });
  return Response.json({ url }, { headers: { "Set-Cookie": cookie, "Cache-Control": "no-store" } });
}
