import { shareAnalyticsResponse } from "@/lib/contracts/engagement";
import { shareParams } from "@/lib/contracts/shares";
import { shareAnalytics } from "@/lib/server/engagement/analytics/share-analytics";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/share/(id)/analytics: visits, visitors, downloads, time per page and per visitor (owner and administrators)
export const GET = route({ params: shareParams, response: shareAnalyticsResponse }, ({ ctx, params }) => shareAnalytics(ctx, params.shareId));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
