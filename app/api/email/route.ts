import { createEmailBody, emailResponse } from "@/lib/contracts/emails";
import { createEmail } from "@/lib/server/emails/create-email";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// POST /api/email: create a custom alert mail (EM_TE_ALERT only)
export const POST = route({ body: createEmailBody, response: { 201: emailResponse } }, async ({ ctx, body }) => created(await createEmail(ctx, body)));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
