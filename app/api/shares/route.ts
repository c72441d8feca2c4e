import { pagingQuery, shareListResponse } from "@/lib/contracts/shares";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { listShares } from "@/lib/server/shares/list-shares";

export const runtime = "nodejs";

// GET /api/shares: my link shares (envelope), expired ones included
export const GET = route({ query: pagingQuery, response: shareListResponse }, ({ ctx, query, req }) => listShares(ctx, query, appUrl(req)));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
