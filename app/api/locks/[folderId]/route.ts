import { listLocksParams, listLocksQuery, lockListResponse } from "@/lib/contracts/locks";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listLocks } from "@/lib/server/locks/list-locks";

export const runtime = "nodejs";

// GET /api/locks/(folderId): the locks on files anywhere below the folder
export const GET = route({ params: listLocksParams, query: listLocksQuery, response: lockListResponse }, ({ ctx, params, query }) =>
  listLocks(ctx, params.folderId, { offset: query.offset_start, limit: query.nb_objects }),
);

export const { PUT, PATCH, POST, DELETE } = otherMethods({ GET });
