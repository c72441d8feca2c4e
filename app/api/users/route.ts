import { listUsersQuery, userListResponse } from "@/lib/contracts/users";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listUsers } from "@/lib/server/users/list-users";

export const runtime = "nodejs";

// GET /api/users: list users (keyword, member_of, paging; beyond the contract: sort, order, usage)
export const GET = route({ query: listUsersQuery, response: userListResponse }, ({ ctx, query }) => listUsers(ctx, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
