import { rightsListParams, rightsListResponse } from "@/lib/contracts/rights";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listRights } from "@/lib/server/rights/list-rights";

export const runtime = "nodejs";

// GET /api/rights/(folderId): the rights set on a folder (Right[])
export const GET = route({ params: rightsListParams, response: rightsListResponse }, ({ ctx, params }) => listRights(ctx, params.folderId));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
