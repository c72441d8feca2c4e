import "server-only";
import { getPlatformConfig } from "../config/platform-config";
import type { AuthedCtx } from "../context";
import { getFolderOrThrow } from "../folders/get-folder";
import { findQuotaFolder, pendingInFolder, pendingOfUser, pendingOnPlatform, usedByUser, usedInFolder, usedOnPlatform } from "./assert-quota";

/**
 * GET /quotas?folder_id=(id): {platform, user, folder} as {quota, used}, null quota = none; used
 * counts every version, trashed ones included, as the quota checks do. `folder.folder` is the
 * folder whose quota applies to `folder_id` (itself or the nearest ancestor carrying a positive
 * quota), null when none does; `used` is then counted under that folder. No folder_id: folder null.
 * Beyond the contract, each figure has `pending`: bytes reserved by uploads still under way, which
 * the quota checks count on top of `used` (a full quota can be `used` + `pending`).
 */
export async function getQuotas(ctx: AuthedCtx, folderId?: number) {
  const user = ctx.actor.user;
  const config = await getPlatformConfig(ctx.db);
  const folder = folderId === undefined ? null : await getFolderQuota(ctx, folderId);
  return {
    platform: { quota: config.quota, used: await usedOnPlatform(ctx.db), pending: await pendingOnPlatform(ctx.db) },
    user: { quota: user.quota, used: await usedByUser(ctx.db, user.id), pending: await pendingOfUser(ctx.db, user.id) },
    folder,
  };
}

async function getFolderQuota(ctx: AuthedCtx, folderId: number) {
  const { folder } = await getFolderOrThrow(ctx.db, ctx.actor.user, folderId, "browse");
  const applying = await findQuotaFolder(ctx.db, folder);
  const counted = applying && applying.quota > 0 ? applying : null;
  const under = counted?.id ?? folder.id;
  return { quota: counted?.quota ?? null, used: await usedInFolder(ctx.db, under), pending: await pendingInFolder(ctx.db, under), folder: counted?.id ?? null };
}
