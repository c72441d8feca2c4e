import { groupListResponse, listGroupsQuery } from "@/lib/contracts/groups";
import { listGroups } from "@/lib/server/groups/list-groups";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/groups: list groups by name (keyword, paging)
export const GET = route({ query: listGroupsQuery, response: groupListResponse }, ({ ctx, query }) => listGroups(ctx, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
