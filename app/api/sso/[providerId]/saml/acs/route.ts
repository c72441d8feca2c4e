import { redirect } from "@/lib/contracts/common";
import { samlResponseBody, samlTicketQuery, ssoParams } from "@/lib/contracts/sso";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { completeSamlSignIn } from "@/lib/server/sso/complete-saml-sign-in";
import { receiveSamlResponse } from "@/lib/server/sso/receive-saml-response";
import { signInFailed } from "@/lib/server/sso/sso-failure";

export const runtime = "nodejs";

// POST /api/sso/(providerId)/saml/acs: the assertion consumer service (HTTP-POST binding); 303 to the GET below
export const POST = route({ auth: "none", params: ssoParams, body: samlResponseBody, response: redirect }, ({ ctx, req, params, body }) =>
  receiveSamlResponse(ctx, req, params.providerId, body).catch((error: unknown) => signInFailed(ctx, params.providerId, error)),
);

// GET /api/sso/(providerId)/saml/acs?ticket=: the same browser finishes the verified sign-in; 303 into the app
export const GET = route({ auth: "none", params: ssoParams, query: samlTicketQuery, response: redirect }, ({ ctx, req, params, query }) =>
  completeSamlSignIn(ctx, req, params.providerId, query.ticket).catch((error: unknown) => signInFailed(ctx, params.providerId, error)),
);

export const { PUT, PATCH, DELETE } = otherMethods({ GET, POST });
