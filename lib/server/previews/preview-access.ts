import type { FileRow, FileVersion } from "@/db/schema";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { getFileOrThrow } from "../files/get-file";
import { redeemFileToken } from "../tokens/redeem-file-token";

export type PreviewAccess = { file: FileRow; version: FileVersion; actorId: number | null; token: string | null };

/**
 * Who may see a version's preview (the read right): the caller's session, or a file token of type
 * preview for this very version (`?token=`), so that an iframe or a media element can load it
 * without an Authorization header.
 */
export async function getPreviewAccessOrThrow(ctx: Ctx, versionId: number, token: string | undefined): Promise<PreviewAccess> {
  if (token) {
    const redeemed = await redeemFileToken(ctx.db, token, "preview");
    if (redeemed.version.id !== versionId) throw new AppError("forbidden", "This preview token is for another file");
    return { file: redeemed.file, version: redeemed.version, actorId: redeemed.user?.id ?? null, token };
  }
  if (!ctx.actor) throw new AppError("unauthorized", "Authentication required: send Authorization: Bearer <token> or a preview token");
  const { file, version } = await getFileOrThrow(ctx.db, ctx.actor.user, versionId, "read");
  return { file, version, actorId: ctx.actor.user.id, token: null };
}
