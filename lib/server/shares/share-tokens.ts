import "server-only";
import { and, eq, lt } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { fileTokens, shares, type FileRow, type FileVersion, type Folder, type ShareRow } from "@/db/schema";
import { hashToken, newToken } from "../auth/tokens";
import { getPlatformConfig } from "../config/platform-config";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { FILE_TOKEN_TTL_MS } from "../tokens/create-file-token";
import { assertUsable } from "./load-share";
import type { ShareVisit } from "../links/resolve-link-visitor";
import { isWatermarked, visitorTokenEnding } from "../engagement/watermark-text";
import { recordShareAccess } from "./record-access";
import { shareCans } from "./share-flags";
import { getSharedFileOrThrow, loadRootItems } from "./share-items";

export type ShareTokenType = "download" | "preview" | "edit";
/** Which file of the share: by GUID, by File id, or the share's only file. */
export type ShareFileRef = { guid: string } | { versionId: number } | { only: true };

/** 403 unless the link's mode allows this use; a preview-only link never gets a download or edit token. */
export async function assertShareAllows(db: DbOrTx, share: ShareRow, type: ShareTokenType): Promise<void> {
  const cans = shareCans(share.flags);
  if (type === "download" && !cans.can_download) throw new AppError("forbidden", "This link only allows previews");
  if (type === "preview" && !cans.can_preview) throw new AppError("forbidden", "This link only allows downloads");
  if (type === "edit" && (!cans.can_edit || !(await getPlatformConfig(db)).features.edit)) throw new AppError("forbidden", "This link does not allow editing");
}

/**
 * The link-share token operations: a file token (15 minutes) that stands for the share, not for
 * a user, redeemed by the same routes as user tokens (`GET /file/download?token=` for
 * downloads). Issuing a preview token counts as a preview of the file.
 */
export async function createShareToken(ctx: Ctx, { share, recipientId, visitorId, accessToken }: ShareVisit, ref: ShareFileRef, type: ShareTokenType): Promise<{ token: string }> {
  await assertShareAllows(ctx.db, share, type);
  const { file, version } = await findFile(ctx.db, share, ref);
  // A watermarked link's download names its visitor in the token, for the stamp (watermark-text.ts).
  const token = newToken() + (type === "download" && isWatermarked(share) ? await visitorTokenEnding(ctx.db, share.id, accessToken) : "");
  await ctx.db.transaction(async (tx) => {
    await tx.delete(fileTokens).where(and(eq(fileTokens.shareId, share.id), lt(fileTokens.expiresAt, new Date())));
    await tx.insert(fileTokens).values({ tokenHash: hashToken(token), versionId: version.id, shareId: share.id, recipientId, visitorId, type, expiresAt: new Date(Date.now() + FILE_TOKEN_TTL_MS) });
    if (type === "preview") await recordShareAccess(tx, share, ctx.request, { kind: "preview", fileId: file.id, versionId: version.id, timeline: true, recipientId, visitorId });
  });
  return { token };
}

async function findFile(db: DbOrTx, share: ShareRow, ref: ShareFileRef) {
  if (!("only" in ref)) return getSharedFileOrThrow(db, share, ref);
  const roots = await loadRootItems(db, share);
  if (roots.folders.length > 0 || roots.files.length !== 1) {
    throw new AppError("invalid_request", "This link shares several items: name the file (POST /token/share/(guid)/download/(key)) or download the zip (GET /zip/share/(key))");
  }
  return roots.files[0];
}

export type RedeemedShareToken = { share: ShareRow; file: FileRow; version: FileVersion; folder: Folder; recipientId: number | null; visitorId: number | null };

/**
 * A share's file token, or null when the token is not one (user tokens are redeemed by
 * redeemFileToken). The share is checked again: still usable (404/410), still exposing the file
 * (404), still allowing the use (403), so a changed or deleted link stops its tokens at once.
 */
export async function redeemShareToken(db: DbOrTx, token: string, type: ShareTokenType): Promise<RedeemedShareToken | null> {
  const [row] = await db.select().from(fileTokens).where(eq(fileTokens.tokenHash, hashToken(token))).limit(1);
  if (!row?.shareId) return null;
  if (row.type !== type || row.expiresAt <= new Date()) throw new AppError("forbidden", "This file token is invalid or has expired; ask for a new one");
  const [share] = await db.select().from(shares).where(eq(shares.id, row.shareId)).limit(1);
  if (!share) throw new AppError("link_not_found", "This link does not exist or has been deleted");
  assertUsable(share);
  await assertShareAllows(db, share, type);
  const found = await getSharedFileOrThrow(db, share, { versionId: row.versionId });
  return { share, ...found, recipientId: row.recipientId, visitorId: row.visitorId };
}
