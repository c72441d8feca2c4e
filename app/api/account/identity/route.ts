import { accountIdentityResponse, connectIdentityBody, connectIdentityResponse } from "@/lib/contracts/identity-links";
import { getAccountIdentity } from "@/lib/server/account/get-account-identity";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { startSsoConnect } from "@/lib/server/sso/start-sso-connect";

export const runtime = "nodejs";

// GET /api/account/identity: {identity} the single sign-on or directory identity that opens the caller's account, or null
export const GET = route({ response: accountIdentityResponse }, ({ ctx }) => getAccountIdentity(ctx));

// POST /api/account/identity: {provider_id, password} starts connecting a single sign-on provider to the caller's account; {url} to send the browser to
export const POST = route({ body: connectIdentityBody, response: connectIdentityResponse }, ({ ctx, req, body }) => startSsoConnect(ctx, req, body));

export const { PUT, PATCH, DELETE } = otherMethods({ GET, POST });
