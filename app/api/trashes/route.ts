import { noContent } from "@/lib/contracts/common";
import { emptyTrashQuery, listTrashQuery, trashListResponse } from "@/lib/contracts/trash";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { emptyTrash } from "@/lib/server/trash/empty-trash";
import { listTrash } from "@/lib/server/trash/list-trash";

export const runtime = "nodejs";

// GET /api/trashes: the caller's trash as {folders, files}; `user_id` (administrators) another user's
export const GET = route({ query: listTrashQuery, response: trashListResponse }, ({ ctx, query }) => listTrash(ctx, query.user_id));

// DELETE /api/trashes: empty the caller's trash; `user_id` another user's or `all` (administrators)
export const DELETE = route({ query: emptyTrashQuery, response: noContent }, ({ ctx, query }) => emptyTrash(ctx, query.user_id));

export const { PUT, PATCH, POST } = otherMethods({ GET, DELETE });
