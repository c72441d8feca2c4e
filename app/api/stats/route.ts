import { statsQuery, statsResponse } from "@/lib/contracts/stats";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { getStats } from "@/lib/server/stats/get-stats";

export const runtime = "nodejs";

// GET /api/stats?mask=(bitmask): storage, trashes, slots, visits, versions, stats, private (administrators)
export const GET = route({ auth: "admin", query: statsQuery, response: statsResponse }, ({ ctx, query }) => getStats(ctx, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
