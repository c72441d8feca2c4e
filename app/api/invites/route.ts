import { invitationListResponse } from "@/lib/contracts/invitations";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listInvitations } from "@/lib/server/invitations/list-invitations";

export const runtime = "nodejs";

// GET /api/invites: the caller's invitations (administrators: all of them)
export const GET = route({ response: invitationListResponse }, ({ ctx }) => listInvitations(ctx));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
