import { folderParams, invitationListResponse } from "@/lib/contracts/invitations";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listFolderInvitations } from "@/lib/server/invitations/list-invitations";

export const runtime = "nodejs";

// GET /api/invites/(folderId): the invitations to a folder (share right there)
export const GET = route({ params: folderParams, response: invitationListResponse }, ({ ctx, params }) => listFolderInvitations(ctx, params.folderId));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
