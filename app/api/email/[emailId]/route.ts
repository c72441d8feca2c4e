import { noContent } from "@/lib/contracts/common";
import { emailParams, emailResponse, updateEmailBody } from "@/lib/contracts/emails";
import { deleteEmail } from "@/lib/server/emails/delete-email";
import { readEmail } from "@/lib/server/emails/read-email";
import { updateEmail } from "@/lib/server/emails/update-email";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/email/(emailId): read a template or a mail of the outbox
export const GET = route({ params: emailParams, response: emailResponse }, ({ ctx, params }) => readEmail(ctx, params.emailId));

// PUT /api/email/(emailId): change a template, or correct a mail before it is sent
export const PUT = route({ params: emailParams, body: updateEmailBody, response: emailResponse }, ({ ctx, params, body }) => updateEmail(ctx, params.emailId, body));

// DELETE /api/email/(emailId): remove a template, or cancel a waiting mail
export const DELETE = route({ params: emailParams, response: noContent }, ({ ctx, params }) => deleteEmail(ctx, params.emailId));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
