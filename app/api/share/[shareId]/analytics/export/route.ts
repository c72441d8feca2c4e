import { notJson } from "@/lib/contracts/common";
import { shareParams } from "@/lib/contracts/shares";
import { exportAnalytics } from "@/lib/server/engagement/analytics/export-analytics";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/share/(id)/analytics/export: the link's visitors as CSV (owner and administrators)
export const GET = route({ params: shareParams, response: notJson("text/csv") }, ({ ctx, params }) => exportAnalytics(ctx, params.shareId));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
