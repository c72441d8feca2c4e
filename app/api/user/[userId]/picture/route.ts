import { z } from "zod";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { noContent, notJson, principalId } from "@/lib/contracts/common";
import { deletePicture } from "@/lib/server/pictures/delete-picture";
import { readPicture } from "@/lib/server/pictures/read-picture";
import { updatePicture } from "@/lib/server/pictures/update-picture";

export const runtime = "nodejs";

const params = z.object({ userId: principalId });

// GET /api/user/(userId)/picture: a user's picture (image/webp); 404 when none
export const GET = route({ params, response: notJson("image/webp") }, ({ ctx, params, req }) => readPicture(ctx, params.userId, req));

// POST /api/user/(userId)/picture: multipart part targetFile, at most 16 MB; body "OK"
export const POST = route({ params, response: notJson("text/plain") }, async ({ ctx, params, source }) => {
  await updatePicture(ctx, params.userId, source);
  return new Response("OK", { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
});

// DELETE /api/user/(userId)/picture: remove a user's picture
export const DELETE = route({ params, response: noContent }, ({ ctx, params }) => deletePicture(ctx, params.userId));

export const { PUT, PATCH } = otherMethods({ GET, POST, DELETE });
