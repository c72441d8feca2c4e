import { clientIdParams, grantListResponse, pagingQuery } from "@/lib/contracts/oauth2";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listAppTokens } from "@/lib/server/oauth2/list-app-tokens";

export const runtime = "nodejs";

// GET /api/oauth2/app/(clientId)/tokens: the authorisations of one application (administrators)
export const GET = route({ auth: "admin", params: clientIdParams, query: pagingQuery, response: grantListResponse }, ({ ctx, params, query }) =>
  listAppTokens(ctx, params.clientId, { offset: query.offset_start, limit: query.nb_objects }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
