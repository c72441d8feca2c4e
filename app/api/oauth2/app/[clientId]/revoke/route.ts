import { noContent } from "@/lib/contracts/common";
import { clientIdParams } from "@/lib/contracts/oauth2";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { revokeToken } from "@/lib/server/oauth2/revoke-token";

export const runtime = "nodejs";

// DELETE /api/oauth2/app/(token)/revoke: ends one authorisation of any user (administrators).
// api.md puts the token where the client id sits in the sibling paths; Next names the segment once.
export const DELETE = route({ auth: "admin", params: clientIdParams, response: noContent }, ({ ctx, params }) => revokeToken(ctx, params.clientId, "any"));

export const { GET, POST, PUT, PATCH } = otherMethods({ DELETE });
