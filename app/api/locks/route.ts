import { listLocksQuery, lockListResponse } from "@/lib/contracts/locks";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listLocks } from "@/lib/server/locks/list-locks";

export const runtime = "nodejs";

// GET /api/locks: the locks the caller holds
export const GET = route({ query: listLocksQuery, response: lockListResponse }, ({ ctx, query }) => listLocks(ctx, undefined, { offset: query.offset_start, limit: query.nb_objects }));

export const { PUT, PATCH, POST, DELETE } = otherMethods({ GET });
