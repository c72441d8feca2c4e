import { noContent } from "@/lib/contracts/common";
import { delegateParams, delegateResponse, updateDelegateBody } from "@/lib/contracts/delegates";
import { deleteDelegate } from "@/lib/server/delegates/delete-delegate";
import { getDelegate } from "@/lib/server/delegates/get-delegate";
import { updateDelegate } from "@/lib/server/delegates/update-delegate";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/delegate/(delegateId): read a group delegate (administrators)
export const GET = route({ auth: "admin", params: delegateParams, response: delegateResponse }, ({ ctx, params }) => getDelegate(ctx, params.delegateId));

// PUT /api/delegate/(delegateId): change its scopes users, security, alerts (partial)
export const PUT = route({ auth: "admin", params: delegateParams, body: updateDelegateBody, response: delegateResponse }, ({ ctx, params, body }) =>
  updateDelegate(ctx, params.delegateId, body),
);

// DELETE /api/delegate/(delegateId): the user stops managing the group
export const DELETE = route({ auth: "admin", params: delegateParams, response: noContent }, ({ ctx, params }) => deleteDelegate(ctx, params.delegateId));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
