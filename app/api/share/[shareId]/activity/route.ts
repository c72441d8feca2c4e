import { z } from "zod";
import { shareActivityResponse, shareParams } from "@/lib/contracts/shares";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { paging } from "@/lib/contracts/common";
import { shareActivity } from "@/lib/server/shares/share-activity";

export const runtime = "nodejs";

// GET /api/share/(id)/activity: visits, previews and downloads through the link, with totals
export const GET = route({ params: shareParams, query: z.object({ ...paging }), response: shareActivityResponse }, ({ ctx, params, query }) => shareActivity(ctx, params.shareId, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
