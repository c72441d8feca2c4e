import { noContent } from "@/lib/contracts/common";
import { groupParams, groupQuery, groupResponse, updateGroupBody } from "@/lib/contracts/groups";
import { deleteGroup } from "@/lib/server/groups/delete-group";
import { getGroup } from "@/lib/server/groups/get-group";
import { updateGroup } from "@/lib/server/groups/update-group";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/group/(groupId): read a group (`full` includes its members)
export const GET = route({ params: groupParams, query: groupQuery, response: groupResponse }, ({ ctx, params, query }) => getGroup(ctx, params.groupId, query));

// PUT /api/group/(groupId): rename, replace members, replace managers
export const PUT = route({ params: groupParams, query: groupQuery, body: updateGroupBody, response: groupResponse }, ({ ctx, params, query, body }) =>
  updateGroup(ctx, params.groupId, body, query),
);

// DELETE /api/group/(groupId): delete a group (administrators)
export const DELETE = route({ params: groupParams, response: noContent }, ({ ctx, params }) => deleteGroup(ctx, params.groupId));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
