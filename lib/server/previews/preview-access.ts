import "server-only";
import type { FileRow, FileVersion } from "@/db/schema";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { isWatermarked } from "../engagement/watermark-text";
import { getFileOrThrow } from "../files/get-file";
import { isSingleDownload, shareCans } from "../shares/share-flags";
import { redeemShareToken } from "../shares/share-tokens";
import { redeemFileToken } from "../tokens/redeem-file-token";

/**
 * `counted`: the preview was already recorded when its token was issued (link shares).
 * `originals`: whether the original bytes may be shown. They are a download: they need the
 * download right (a user's, or a link's mode), otherwise the caller gets renditions only.
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
    if (viaShare) {
      if (viaShare.version.id !== versionId) throw new AppError("forbidden", "This preview token is for another file");
      // A watermarked link shows its pages through the page images only, which carry the watermark.
      if (isWatermarked(viaShare.share)) {
        throw new AppError("forbidden", "This link watermarks its documents: its pages are shown by GET /share/key/(key)/file/(fileId)/page/(page)");
      }
      // A single-download link's one download is claimed by the download paths only; handing out
      // its original here would let it be read any number of times, so its previews are renditions.
      const originals = shareCans(viaShare.share.flags).can_download && !isSingleDownload(viaShare.share);
      return { file: viaShare.file, version: viaShare.version, actorId: null, token, counted: true, originals };
    }
    const redeemed = await redeemFileToken(ctx.db, token, "preview");
    if (redeemed.version.id !== versionId) throw new AppError("forbidden", "This preview token is for another file");
    // The right of the token's user now, not when it was minted: a download right withdrawn since applies at once.
    return { file: redeemed.file, version: redeemed.version, actorId: redeemed.user.id, token, counted: false, originals: redeemed.rights.download };
  }
  if (!ctx.actor) throw new AppError("unauthorized", "Authentication required: send Authorization: Bearer <token> or a preview token");
  const { file, version, rights } = await getFileOrThrow(ctx.db, ctx.actor.user, versionId, "read");
  return { file, version, actorId: ctx.actor.user.id, token: null, counted: false, originals: rights.download };
}
