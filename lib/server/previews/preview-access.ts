import type { FileRow, FileVersion } from "@/db/schema";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { getFileOrThrow } from "../files/get-file";
import { shareCans } from "../shares/share-flags";
import { redeemShareToken } from "../shares/share-tokens";
import { redeemFileToken } from "../tokens/redeem-file-token";

/**
 * `counted`: the preview was already recorded when its token was issued (link shares).
 * `originals`: whether the original bytes may be shown; a preview-only link gets renditions.
 */
export type PreviewAccess = { file: FileRow; version: FileVersion; actorId: number | null; token: string | null; counted: boolean; originals: boolean };

/**
 * Who may see a version's preview (the read right): the caller's session, or a file token of type
 * preview for this very version (`?token=`), so that an iframe or a media element can load it
 * without an Authorization header. A link share's preview token works the same way, for as long
 * as the share shows the file and allows previews.
 */
export async function getPreviewAccessOrThrow(ctx: Ctx, versionId: number, token: string | undefined): Promise<PreviewAccess> {
  if (token) {
    const viaShare = await redeemShareToken(ctx.db, token, "preview");
    const redeemed = viaShare ?? (await redeemFileToken(ctx.db, token, "preview"));
    if (redeemed.version.id !== versionId) throw new AppError("forbidden", "This preview token is for another file");
    const actorId = "user" in redeemed ? (redeemed.user?.id ?? null) : null;
    const originals = viaShare ? shareCans(viaShare.share.flags).can_download : true;
    return { file: redeemed.file, version: redeemed.version, actorId, token, counted: viaShare !== null, originals };
  }
  if (!ctx.actor) throw new AppError("unauthorized", "Authentication required: send Authorization: Bearer <token> or a preview token");
  const { file, version } = await getFileOrThrow(ctx.db, ctx.actor.user, versionId, "read");
  return { file, version, actorId: ctx.actor.user.id, token: null, counted: false, originals: true };
}
