import { createInvitationBody, invitationResponse } from "@/lib/contracts/invitations";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { createInvitation } from "@/lib/server/invitations/create-invitation";
import { appUrl } from "@/lib/server/mail/app-url";

export const runtime = "nodejs";

// POST /api/invite: invite an email address to a folder; mails it a link to create its account
export const POST = route({ body: createInvitationBody, response: { 201: invitationResponse } }, async ({ ctx, body, req }) => created(await createInvitation(ctx, body, appUrl(req))));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
