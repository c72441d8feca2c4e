import { noContent } from "@/lib/contracts/common";
import { invitationParams, invitationResponse, updateInvitationBody } from "@/lib/contracts/invitations";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { deleteInvitation } from "@/lib/server/invitations/delete-invitation";
import { updateInvitation } from "@/lib/server/invitations/update-invitation";

export const runtime = "nodejs";

// PUT /api/invite/(invitationId): change the rights mask or the expiration of a pending invitation
export const PUT = route({ params: invitationParams, body: updateInvitationBody, response: invitationResponse }, ({ ctx, params, body }) => updateInvitation(ctx, params.invitationId, body));

// DELETE /api/invite/(invitationId): withdraw an invitation (its key stops working)
export const DELETE = route({ params: invitationParams, response: noContent }, ({ ctx, params }) => deleteInvitation(ctx, params.invitationId));

export const { GET, PATCH, POST } = otherMethods({ PUT, DELETE });
