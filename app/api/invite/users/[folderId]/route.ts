import { folderParams, invitableUserListResponse, invitableUsersQuery } from "@/lib/contracts/invitations";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listInvitableUsers } from "@/lib/server/invitations/list-invitable-users";

export const runtime = "nodejs";

// GET /api/invite/users/(folderId): accounts matching `search` (3+ characters) that could get a right on the folder
export const GET = route({ params: folderParams, query: invitableUsersQuery, response: invitableUserListResponse }, ({ ctx, params, query }) => listInvitableUsers(ctx, params.folderId, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
