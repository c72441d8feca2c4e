import { visitorTimelineResponse } from "@/lib/contracts/engagement";
import { z } from "zod";
import { id } from "@/lib/contracts/common";
import { visitorTimeline } from "@/lib/server/engagement/analytics/visitor-timeline";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

const params = z.object({ shareId: id, visitorId: id });

// GET /api/share/(id)/analytics/visitors/(visitorId): one visitor's visits and page events (owner and administrators)
export const GET = route({ params, response: visitorTimelineResponse }, ({ ctx, params }) => visitorTimeline(ctx, params.shareId, params.visitorId));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
