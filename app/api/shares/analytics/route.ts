import { linksAnalyticsResponse } from "@/lib/contracts/engagement";
import { linksAnalytics } from "@/lib/server/engagement/analytics/links-analytics";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/shares/analytics: my link shares with their engagement, and daily visits over 30 days
export const GET = route({ response: linksAnalyticsResponse }, ({ ctx }) => linksAnalytics(ctx));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
