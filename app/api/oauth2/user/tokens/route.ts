import { grantListResponse, pagingQuery } from "@/lib/contracts/oauth2";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listUserTokens } from "@/lib/server/oauth2/list-user-tokens";

export const runtime = "nodejs";

// GET /api/oauth2/user/tokens: the applications I authorised
export const GET = route({ query: pagingQuery, response: grantListResponse }, ({ ctx, query }) => listUserTokens(ctx, { offset: query.offset_start, limit: query.nb_objects }));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
