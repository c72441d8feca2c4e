import { notJson } from "@/lib/contracts/common";
import { cancelUploadBody } from "@/lib/contracts/files";
import { cancelUpload } from "@/lib/server/files/cancel-upload";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// DELETE /api/file/cancel: abandon the caller's unfinished upload of `filename` in `folderId`
export const DELETE = route({ body: cancelUploadBody, response: notJson("text/plain") }, async ({ ctx, body }) => {
  await cancelUpload(ctx, body);
  // The contract answers "200 OK", as the chunked upload's intermediate answers do.
  return new Response("OK", { status: 200, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
});

export const { GET, PUT, PATCH, POST } = otherMethods({ DELETE });
