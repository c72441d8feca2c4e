import { pagingQuery, sharelinkListResponse } from "@/lib/contracts/sharelinks";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { listSharelinks } from "@/lib/server/sharelinks/list-sharelinks";

export const runtime = "nodejs";

// GET /api/sharelinks (obsolete): my link shares, legacy form (envelope)
export const GET = route({ query: pagingQuery, response: sharelinkListResponse }, ({ ctx, query, req }) => listSharelinks(ctx, { offset: query.offset_start, limit: query.nb_objects }, appUrl(req)));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
