import { completeInvitationBody, invitationPreviewResponse, keyParams } from "@/lib/contracts/invitations";
import { userResponse } from "@/lib/contracts/users";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { completeInvitation } from "@/lib/server/invitations/complete-invitation";
import { readInvitationKey } from "@/lib/server/invitations/read-invitation-key";

export const runtime = "nodejs";

// GET /api/invite/key/(key): who invites whom to which folder, until when (no token)
export const GET = route({ auth: "none", params: keyParams, response: invitationPreviewResponse }, ({ ctx, params }) => readInvitationKey(ctx, params.key));

// POST /api/invite/key/(key): create the invited person's account and give it the folder (no token)
export const POST = route({ auth: "none", params: keyParams, body: completeInvitationBody, response: { 201: userResponse } }, async ({ ctx, params, body }) =>
  created(await completeInvitation(ctx, params.key, body)),
);

export const { PUT, PATCH, DELETE } = otherMethods({ GET, POST });
