import "server-only";
import type { OpenTusBody } from "@/lib/contracts/uploads";
import { newToken } from "../auth/tokens";
import type { AuthedCtx } from "../context";
import { validateName } from "../files/names";
import { reserveUpload } from "./reserve-upload";
import { assertUploadAllowed } from "./upload-target";
import { tusUploadId } from "./upload-sessions";

/**
 * POST /file/tus with `{name, target, size}` (api.md): opens a resumable upload of `size` bytes
 * into folder `target`. Rights (write, or edit for an existing name), locks and quotas for the
 * whole size are checked now, before any byte is sent, and the size stays reserved until the
 * upload is finished, terminated (tus DELETE) or expires. Returns `[{sessionKey}]`: the key goes in
 * the tus creation request (`Upload-Metadata: token <base64 key>`) and finalises the upload.
 */
export async function openTusUpload(ctx: AuthedCtx, body: OpenTusBody): Promise<[{ sessionKey: string }]> {
  const name = validateName(body.name);
  const { folder } = await assertUploadAllowed(ctx, { folderId: body.target, name }, body.size);
  const sessionKey = newToken();
  // The whole size is reserved against the quotas now, within the open-upload caps (reserve-upload.ts).
  await reserveUpload(ctx, { id: tusUploadId(sessionKey), kind: "tus", userId: ctx.actor.user.id, folderId: body.target, name, size: body.size, context: {} }, folder);
  return [{ sessionKey }];
}
