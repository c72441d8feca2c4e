import "server-only";
import { and, eq, lt } from "drizzle-orm";
import { fileTokens } from "@/db/schema";
import type { FileTokenType } from "@/lib/contracts/files";
import { hashToken, newToken } from "../auth/tokens";
import { getPlatformConfig } from "../config/platform-config";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { getFileOrThrow } from "../files/get-file";
import { assertNotLockedByOther } from "../locks/assert-not-locked";
import type { RightName } from "../rights/rights";

export const FILE_TOKEN_TTL_MS = 15 * 60_000;

/**
 * What `file_tokens.type` holds for a token pinned to its version: `latest` never swaps it for a
 * newer one. A workflow validator's tokens are pinned (issue 25): they show the version the
 * initiator submitted, never one uploaded since. The suffix keeps a pinned token from ever
 * passing for a plain one.
 */
export const pinnedUse = (type: FileTokenType) => `${type}:pinned`;

/** The right each use needs in the file's folder; redeeming checks it again. */
export const RIGHT_FOR_TOKEN: Record<FileTokenType, RightName> = { download: "download", preview: "read", edit: "edit" };

/**
 * POST /token/file/(fileId)/(type): a short-lived token (15 minutes) for one version and one use,
 * so a browser or an editor can fetch the content without the caller's session. Only its hash is
 * stored. An edit token needs the platform's edit feature and a file nobody else has locked.
 */
export async function createFileToken(ctx: AuthedCtx, versionId: number, type: FileTokenType): Promise<{ token: string }> {
  const user = ctx.actor.user;
  const { file, version } = await getFileOrThrow(ctx.db, user, versionId, RIGHT_FOR_TOKEN[type]);
  if (type === "edit") {
    if (!(await getPlatformConfig(ctx.db)).features.edit) throw new AppError("forbidden", "Online editing is disabled on this platform");
    await assertNotLockedByOther(ctx.db, file.id, user.id);
  }
  const token = newToken();
  await ctx.db.transaction(async (tx) => {
    // The caller's expired tokens go on the way, so the table never grows without bound.
    await tx.delete(fileTokens).where(and(eq(fileTokens.userId, user.id), lt(fileTokens.expiresAt, new Date())));
    await tx.insert(fileTokens).values({ tokenHash: hashToken(token), versionId: version.id, userId: user.id, type, expiresAt: new Date(Date.now() + FILE_TOKEN_TTL_MS) });
  });
  return { token };
}
