import { tusBody, tusResponse } from "@/lib/contracts/uploads";
import { presentCommitted } from "@/lib/server/files/present-files";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { finishTusUpload } from "@/lib/server/uploads/finish-tus-upload";
import { openTusUpload } from "@/lib/server/uploads/open-tus-upload";

export const runtime = "nodejs";

// POST /api/file/tus: {name, target, size} opens a resumable upload ([{sessionKey}], 201); {token} finalises it (201 File)
export const POST = route({ body: tusBody, response: { 201: tusResponse } }, async ({ ctx, body }) => {
  if ("token" in body) {
    const result = await finishTusUpload(ctx, body.token);
    return created(await presentCommitted(ctx, result, "default"));
  }
  return created(await openTusUpload(ctx, body));
});

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
