import type { OpenTusBody } from "@/lib/contracts/uploads";
import { uploads } from "@/db/schema";
import { newToken } from "../auth/tokens";
import type { AuthedCtx } from "../context";
import { validateName } from "../files/names";
import { assertUploadAllowed } from "./upload-target";
import { tusUploadId } from "./upload-sessions";

/**
 * POST /file/tus with `{name, target, size}` (api.md): opens a resumable upload of `size` bytes
 * into folder `target`. Rights (write, or edit for an existing name), locks and quotas for the
 * whole size are checked now, before any byte is sent. Returns `[{sessionKey}]`: the key goes in
 * the tus creation request (`Upload-Metadata: token <base64 key>`) and finalises the upload.
 */
export async function openTusUpload(ctx: AuthedCtx, body: OpenTusBody): Promise<[{ sessionKey: string }]> {
  const name = validateName(body.name);
  await assertUploadAllowed(ctx, { folderId: body.target, name }, body.size);
  const sessionKey = newToken();
  await ctx.db.insert(uploads).values({ id: tusUploadId(sessionKey), kind: "tus", userId: ctx.actor.user.id, folderId: body.target, name, size: body.size, context: {} });
  return [{ sessionKey }];
}
