import { appListResponse, pagingQuery } from "@/lib/contracts/oauth2";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listApps } from "@/lib/server/oauth2/list-apps";

export const runtime = "nodejs";

// GET /api/oauth2/apps: every OAuth2 application (administrators)
export const GET = route({ auth: "admin", query: pagingQuery, response: appListResponse }, ({ ctx, query }) => listApps(ctx, { offset: query.offset_start, limit: query.nb_objects }));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
