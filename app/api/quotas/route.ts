import { quotasQuery, quotasResponse } from "@/lib/contracts/folders";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { getQuotas } from "@/lib/server/quotas/get-quotas";

export const runtime = "nodejs";

// GET /api/quotas?folder_id=(id): platform, user and folder quotas with their use
export const GET = route({ query: quotasQuery, response: quotasResponse }, ({ ctx, query }) => getQuotas(ctx, query.folder_id));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
