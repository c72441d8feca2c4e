import { fileTimelineResponse } from "@/lib/contracts/timelines";
import { fileParams, listVersionsQuery } from "@/lib/contracts/files";
import { otherMethods } from "@/lib/server/http/methods";
import { modeOf } from "@/lib/server/present/mode";
import { route } from "@/lib/server/http/route";
import { readFileTimeline } from "@/lib/server/timelines/file-timeline";

export const runtime = "nodejs";

// GET /api/file/(fileId)/timeline: each version, newest first, with its totals and events
export const GET = route({ params: fileParams, query: listVersionsQuery, response: fileTimelineResponse }, ({ ctx, params, query }) => readFileTimeline(ctx, params.fileId, modeOf(query)));

export const { PUT, PATCH, POST, DELETE } = otherMethods({ GET });
