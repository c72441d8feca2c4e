import { redirect } from "@/lib/contracts/common";
import { ssoParams } from "@/lib/contracts/sso";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { completeOidcSignIn } from "@/lib/server/sso/complete-oidc-sign-in";
import { signInFailed } from "@/lib/server/sso/sso-failure";

export const runtime = "nodejs";

// GET /api/sso/(providerId)/callback: the OpenID Connect redirect URI; signs in and redirects (303)
export const GET = route({ auth: "none", params: ssoParams, response: redirect }, ({ ctx, req, params }) =>
  completeOidcSignIn(ctx, req, params.providerId).catch((error: unknown) => signInFailed(ctx, params.providerId, error)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
