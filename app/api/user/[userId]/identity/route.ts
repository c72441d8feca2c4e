import { noContent } from "@/lib/contracts/common";
import { accountIdentityResponse, setUserIdentityBody } from "@/lib/contracts/identity-links";
import { userParams } from "@/lib/contracts/users";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { clearUserIdentity } from "@/lib/server/identity/clear-user-identity";
import { getUserIdentity } from "@/lib/server/identity/get-user-identity";
import { setUserIdentity } from "@/lib/server/identity/set-user-identity";

export const runtime = "nodejs";

// GET /api/user/(userId)/identity: {identity} the outside identity that opens this account, or null (administrators)
export const GET = route({ auth: "admin", params: userParams, response: accountIdentityResponse }, ({ ctx, params }) => getUserIdentity(ctx, params.userId));

// PUT /api/user/(userId)/identity: {provider_id, external_id} links the account to a single sign-on identity (administrators; the owner is mailed)
export const PUT = route({ auth: "admin", params: userParams, body: setUserIdentityBody, response: accountIdentityResponse }, ({ ctx, params, body }) => setUserIdentity(ctx, params.userId, body));

// DELETE /api/user/(userId)/identity: the account's single sign-on identity no longer opens it (administrators)
export const DELETE = route({ auth: "admin", params: userParams, response: noContent }, ({ ctx, params }) => clearUserIdentity(ctx, params.userId));

export const { POST } = otherMethods({ GET, PUT, DELETE });
