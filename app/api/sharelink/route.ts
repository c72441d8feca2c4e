import { createSharelinkBody, sharelinkResponse } from "@/lib/contracts/sharelinks";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { createSharelink } from "@/lib/server/sharelinks/create-sharelink";

export const runtime = "nodejs";

// POST /api/sharelink (obsolete): a link share on files, in the legacy form
export const POST = route({ body: createSharelinkBody, response: { 201: sharelinkResponse } }, async ({ ctx, body, req }) => created(await createSharelink(ctx, body, appUrl(req))));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
