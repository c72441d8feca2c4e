import { delegateListResponse, groupDelegatesParams, listDelegatesQuery } from "@/lib/contracts/delegates";
import { listDelegates } from "@/lib/server/delegates/list-delegates";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/delegates/(groupId): the group's delegates, in the list envelope (administrators)
export const GET = route({ auth: "admin", params: groupDelegatesParams, query: listDelegatesQuery, response: delegateListResponse }, ({ ctx, params, query }) =>
  listDelegates(ctx, params.groupId, query),
);

export const { PUT, PATCH, POST, DELETE } = otherMethods({ GET });
