import { createShareBody, shareResponse } from "@/lib/contracts/shares";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { createShare } from "@/lib/server/shares/create-share";

export const runtime = "nodejs";

// POST /api/share: create a link share on files and folders (share right, feature direct_link)
export const POST = route({ body: createShareBody, response: { 201: shareResponse } }, async ({ ctx, body, req }) => created(await createShare(ctx, body, appUrl(req))));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
