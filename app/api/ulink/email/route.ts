import { createUlinkEmailBody, ulinkEmailResponse } from "@/lib/contracts/ulinks";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { createUlinkEmail } from "@/lib/server/ulinks/create-ulink-email";

export const runtime = "nodejs";

// POST /api/ulink/email: mail each recipient a drop link of their own
export const POST = route({ body: createUlinkEmailBody, response: { 201: ulinkEmailResponse } }, async ({ ctx, body, req }) => created(await createUlinkEmail(ctx, body, appUrl(req))));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
