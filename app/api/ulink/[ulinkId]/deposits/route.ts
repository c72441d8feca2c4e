import { depositorGroupListResponse, pagingQuery, ulinkParams } from "@/lib/contracts/ulinks";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listUlinkDeposits } from "@/lib/server/ulinks/list-ulink-deposits";

export const runtime = "nodejs";

// GET /api/ulink/(ulinkId)/deposits: the link's deposits grouped by depositor (envelope; ours, issue 29)
export const GET = route({ params: ulinkParams, query: pagingQuery, response: depositorGroupListResponse }, ({ ctx, params, query }) =>
  listUlinkDeposits(ctx, params.ulinkId, { offset: query.offset_start, limit: query.nb_objects }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
