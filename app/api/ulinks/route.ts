import { pagingQuery, ulinkListResponse } from "@/lib/contracts/ulinks";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { listUlinks } from "@/lib/server/ulinks/list-ulinks";

export const runtime = "nodejs";

// GET /api/ulinks: my drop links (envelope), expired ones included
export const GET = route({ query: pagingQuery, response: ulinkListResponse }, ({ ctx, query, req }) => listUlinks(ctx, { offset: query.offset_start, limit: query.nb_objects }, appUrl(req)));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
