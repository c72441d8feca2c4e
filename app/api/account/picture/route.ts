import { noContent, notJson } from "@/lib/contracts/common";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { deletePicture } from "@/lib/server/pictures/delete-picture";
import { readPicture } from "@/lib/server/pictures/read-picture";
import { updatePicture } from "@/lib/server/pictures/update-picture";

export const runtime = "nodejs";

// GET /api/account/picture: the caller's picture (image/webp); 404 when none
export const GET = route({ response: notJson("image/webp") }, ({ ctx, req }) => readPicture(ctx, ctx.actor.user.id, req));

// POST /api/account/picture: multipart part targetFile, at most 16 MB; body "OK"
export const POST = route({ response: notJson("text/plain") }, async ({ ctx, source }) => {
  await updatePicture(ctx, ctx.actor.user.id, source);
  return new Response("OK", { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
});

// DELETE /api/account/picture: remove the caller's picture
export const DELETE = route({ response: noContent }, ({ ctx }) => deletePicture(ctx, ctx.actor.user.id));

export const { PUT, PATCH } = otherMethods({ GET, POST, DELETE });
