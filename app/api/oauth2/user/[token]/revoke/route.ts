import { noContent } from "@/lib/contracts/common";
import { tokenParams } from "@/lib/contracts/oauth2";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { revokeToken } from "@/lib/server/oauth2/revoke-token";

export const runtime = "nodejs";

// DELETE /api/oauth2/user/(token)/revoke: ends one of my authorisations
export const DELETE = route({ params: tokenParams, response: noContent }, ({ ctx, params }) => revokeToken(ctx, params.token, "own"));

export const { GET, POST, PUT, PATCH } = otherMethods({ DELETE });
