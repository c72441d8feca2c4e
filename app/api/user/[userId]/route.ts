import { noContent } from "@/lib/contracts/common";
import { alertQuery, updateUserBody, userParams, userResponse } from "@/lib/contracts/users";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { deleteUser } from "@/lib/server/users/delete-user";
import { getUser } from "@/lib/server/users/get-user";
import { updateUser } from "@/lib/server/users/update-user";

export const runtime = "nodejs";

// GET /api/user/(userId): read a user
export const GET = route({ params: userParams, response: userResponse }, ({ ctx, params }) => getUser(ctx, params.userId));

// PUT /api/user/(userId): partial update (`alert` mails a changed password)
export const PUT = route({ params: userParams, query: alertQuery, body: updateUserBody, response: userResponse }, ({ ctx, params, query, body }) =>
  updateUser(ctx, params.userId, body, { alert: query.alert }),
);

// DELETE /api/user/(userId): soft delete; the private space goes to the trash
export const DELETE = route({ params: userParams, response: noContent }, ({ ctx, params }) => deleteUser(ctx, params.userId));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
