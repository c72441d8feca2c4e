import { createUlinkBody, ulinkResponse } from "@/lib/contracts/ulinks";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { createUlink } from "@/lib/server/ulinks/create-ulink";

export const runtime = "nodejs";

// POST /api/ulink: a drop link on a folder (share and write rights; feature upload_link)
export const POST = route({ body: createUlinkBody, response: { 201: ulinkResponse } }, async ({ ctx, body, req }) => created(await createUlink(ctx, body, appUrl(req))));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
