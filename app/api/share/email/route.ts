import { createShareEmailBody, shareEmailResponse } from "@/lib/contracts/share-emails";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { createShareEmail } from "@/lib/server/share-emails/create-share-email";

export const runtime = "nodejs";

// POST /api/share/email: mail one of my link shares, each recipient with a personal address
export const POST = route({ body: createShareEmailBody, response: { 201: shareEmailResponse } }, async ({ ctx, body, req }) => created(await createShareEmail(ctx, body, appUrl(req))));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
