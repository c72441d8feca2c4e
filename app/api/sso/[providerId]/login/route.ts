import { redirect } from "@/lib/contracts/common";
import { ssoLoginQuery, ssoParams } from "@/lib/contracts/sso";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { signInFailed } from "@/lib/server/sso/sso-failure";
import { startSsoLogin } from "@/lib/server/sso/start-sso-login";

export const runtime = "nodejs";

// GET /api/sso/(providerId)/login?next=: sends the browser to the provider (303); failures back to /login
export const GET = route({ auth: "none", params: ssoParams, query: ssoLoginQuery, response: redirect }, ({ ctx, req, params, query }) =>
  startSsoLogin(ctx, req, params.providerId, query.next).catch((error: unknown) => signInFailed(ctx, params.providerId, error)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
