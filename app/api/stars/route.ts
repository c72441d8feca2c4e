import { listStarsQuery, starsResponse } from "@/lib/contracts/stars";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listStars } from "@/lib/server/stars/list-stars";

export const runtime = "nodejs";

// GET /api/stars: the caller's starred files and folders they may still see, newest first
export const GET = route({ query: listStarsQuery, response: starsResponse }, ({ ctx, query }) => listStars(ctx, { offset: query.offset_start, limit: query.nb_objects }));

export const { PUT, PATCH, POST, DELETE } = otherMethods({ GET });
