import "server-only";
import type { MfaRequiredDetails } from "@/lib/contracts/mfa";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { connectSsoIdentity } from "./connect-sso-identity";
import { openSsoSession } from "./open-sso-session";
import { provisionSsoUser, type SsoIdentity } from "./provision-sso-user";
import { signInFailed } from "./sso-failure";
import { redirect, safeNext } from "./sso-http";
import type { SsoProvider } from "./sso-provider";

/** The flow a verified answer belongs to: where to go, and the account connecting the provider, if any. */
export type FinishedFlow = { next: string; userId: number | null };

/**
 * The end of every SSO flow, once the provider's answer is verified. A flow started from the
 * account page links the identity to that account and goes back there. A sign-in finds the
 * account (linked, matched or created: provision-sso-user.ts), then opens the web session and
 * goes where the person was going. An account with a second factor goes back to the sign-in
 * page for its second step: the mfa_token rides in the fragment, which browsers never send to a
 * server nor put in Referer.
 */
export async function finishSsoSignIn(ctx: Ctx, req: Request, provider: SsoProvider, identity: SsoIdentity, flow: FinishedFlow): Promise<Response> {
  if (flow.userId !== null) {
    try {
      await connectSsoIdentity(ctx, provider, identity, flow.userId);
    } catch (error) {
      return signInFailed(ctx, provider.id, error, "/account");
    }
    return redirect(`/account?sso_connected=${provider.id}`);
  }
  const user = await provisionSsoUser(ctx, provider, identity);
  try {
    const { cookie } = await openSsoSession(ctx, req, user, provider);
    return redirect(safeNext(flow.next), [cookie]);
  } catch (error) {
    if (error instanceof AppError && error.code === "mfa_required") {
      const details = error.details as MfaRequiredDetails;
      const fragment = new URLSearchParams({ mfa_token: details.mfa_token, methods: details.methods.join(","), ...(details.phone ? { phone: details.phone } : {}) });
      return redirect(`/login?next=${encodeURIComponent(safeNext(flow.next))}#${fragment}`);
    }
    throw error;
  }
}
