import "server-only";
import type { MfaRequiredDetails } from "@/lib/contracts/mfa";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { openSsoSession } from "./open-sso-session";
import { provisionSsoUser, type SsoIdentity } from "./provision-sso-user";
import { redirect, safeNext } from "./sso-http";
import type { SsoProvider } from "./sso-provider";

/**
 * The end of every SSO sign-in, once the provider's answer is verified: the account (linked,
 * matched or created), then the web session and a redirect to where the person was going.
 * An account with a second factor goes back to the sign-in page for its second step: the
 * mfa_token rides in the fragment, which browsers never send to a server nor put in Referer.
 */
export async function finishSsoSignIn(ctx: Ctx, req: Request, provider: SsoProvider, identity: SsoIdentity, next: string): Promise<Response> {
  const user = await provisionSsoUser(ctx, provider, identity);
  try {
    const { cookie } = await openSsoSession(ctx, req, user, provider);
    return redirect(safeNext(next), [cookie]);
  } catch (error) {
    if (error instanceof AppError && error.code === "mfa_required") {
      const details = error.details as MfaRequiredDetails;
      const fragment = new URLSearchParams({ mfa_token: details.mfa_token, methods: details.methods.join(","), ...(details.phone ? { phone: details.phone } : {}) });
      return redirect(`/login?next=${encodeURIComponent(safeNext(next))}#${fragment}`);
    }
    throw error;
  }
}
