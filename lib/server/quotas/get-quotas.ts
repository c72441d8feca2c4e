import { getPlatformConfig } from "../config/platform-config";
import type { AuthedCtx } from "../context";
import { getFolderOrThrow } from "../folders/get-folder";
import { findQuotaFolder, usedByUser, usedInFolder, usedOnPlatform } from "./assert-quota";

/**
 * GET /quotas?folder_id=(id): {platform, user, folder} as {quota, used}, null quota = none; used
 * counts every version, trashed ones included, as the quota checks do. `folder.folder` is the
 * folder whose quota applies to `folder_id` (itself or the nearest ancestor carrying a positive
 * quota), null when none does; `used` is then counted under that folder. No folder_id: folder null.
 */
export async function getQuotas(ctx: AuthedCtx, folderId?: number) {
  const user = ctx.actor.user;
  const config = await getPlatformConfig(ctx.db);
  const folder = folderId === undefined ? null : await getFolderQuota(ctx, folderId);
  return {
    platform: { quota: config.quota, used: await usedOnPlatform(ctx.db) },
    user: { quota: user.quota, used: await usedByUser(ctx.db, user.id) },
    folder,
  };
}

async function getFolderQuota(ctx: AuthedCtx, folderId: number) {
  const { folder } = await getFolderOrThrow(ctx.db, ctx.actor.user, folderId, "browse");
  const applying = await findQuotaFolder(ctx.db, folder);
  if (applying && applying.quota > 0) return { quota: applying.quota, used: await usedInFolder(ctx.db, applying.id), folder: applying.id };
  return { quota: null, used: await usedInFolder(ctx.db, folder.id), folder: null };
}
