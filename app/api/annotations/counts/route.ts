import { countsQuery, countsResponse } from "@/lib/contracts/annotations";
import { countListedAnnotations } from "@/lib/server/annotations/count-listed-annotations";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/annotations/counts?files=1,2&folders=3 (beyond the contract): comment counts of listed rows
export const GET = route({ query: countsQuery, response: countsResponse }, ({ ctx, query }) => countListedAnnotations(ctx, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
