import "server-only";
import type { Folder } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { AppError, forbidden } from "../errors";
import { findLiveFileIdByName } from "../files/live-files";
import { validateName } from "../files/names";
import { createFolder } from "../folders/create-folder";
import { findLiveChildFolder } from "../folders/folder-names";
import { getFolderOrThrow } from "../folders/get-folder";
import { assertNotLockedByOther } from "../locks/assert-not-locked";
import { assertQuota, remainingQuota } from "../quotas/assert-quota";
import { resolveFolderRights } from "../rights/resolve-rights";
import type { Rights } from "../rights/rights";

/** `neverOverwrite` (drop links): an existing name gets a numbered one, so only the write right counts. */
export type UploadTarget = { folderId: number; targetPath?: string; name: string; neverOverwrite?: boolean };

/** `targetPath` ("a/b/c", slashes either way, empty segments ignored) as validated folder names. */
export function splitTargetPath(targetPath: string | undefined): string[] {
  if (!targetPath) return [];
  return targetPath
    .split(/[/\\]/)
    .filter((s) => s !== "")
    .map((segment) => validateName(segment));
}

/**
 * What commitUpload will check, done before any byte is stored, so a doomed upload is refused at
 * once (404 folder, 403 right, 423 lock, 507 quota for the declared size) without writing anything:
 * folders of `targetPath` that do not exist yet only need the write right where they would start.
 * Returns the deepest existing folder of the path, whose quotas apply, and with `room` the bytes
 * its quotas still leave (remainingQuota).
 */
export async function assertUploadAllowed(ctx: AuthedCtx, target: UploadTarget, declaredSize?: number, options: { room?: boolean } = {}): Promise<{ folder: Folder; room?: number }> {
  const { db } = ctx;
  const name = validateName(target.name);
  const { folder, rights, missing } = await walkTargetPath(ctx, target.folderId, splitTargetPath(target.targetPath));
  const scope = { userId: ctx.actor.user.id, folder };
  // The room left is asked while the name is looked up (one round trip less); a refusal below
  // still comes first, and then the room is not used.
  const asked = options.room ? remainingQuota(db, scope) : undefined;
  asked?.catch(() => {});
  if (missing.length > 0) {
    if (!rights.write) throw forbidden("Creating the folders of targetPath needs the write right");
  } else {
    const existing = target.neverOverwrite ? null : await findLiveFileIdByName(db, folder.id, name);
    if (existing === null && !rights.write) throw forbidden("Adding a file needs the write right in this folder");
    if (existing !== null) {
      if (!rights.edit) throw forbidden("A new version needs the edit right in this folder");
      await assertNotLockedByOther(db, existing, ctx.actor.user.id);
    }
  }
  if (asked) {
    // The room left is the declared size's check too (declared > room exactly when a quota would
    // be exceeded): one set of queries instead of two; assertQuota only words the refusal.
    const room = await asked;
    if (declaredSize !== undefined && declaredSize > 0 && declaredSize > room) {
      await assertQuota(db, scope, declaredSize, { lock: false });
      throw new AppError("insufficient_storage", "Storage exhausted: this would exceed a quota");
    }
    return { folder, room };
  }
  if (declaredSize !== undefined && declaredSize > 0) {
    await assertQuota(db, scope, declaredSize, { lock: false });
  }
  // The deepest existing folder of the path: its quotas are the ones the upload will count under.
  return { folder };
}

/**
 * The folder an upload lands in: `folderId`, or below it the folders of `targetPath`, created
 * where missing by the folder creation service (write right in each parent; a folder of that name
 * the caller cannot see is a 403). Like `mkdir -p`, folders created for an upload that then fails
 * stay, empty.
 */
export async function ensureTargetFolder(ctx: AuthedCtx, folderId: number, targetPath: string | undefined): Promise<number> {
  let current = folderId;
  for (const name of splitTargetPath(targetPath)) {
    const { folder } = await createFolder(ctx, { name, parent_id: current });
    current = folder.id;
  }
  return current;
}

async function walkTargetPath(ctx: AuthedCtx, folderId: number, segments: string[]): Promise<{ folder: Folder; rights: Rights; missing: string[] }> {
  let { folder, rights } = await getFolderOrThrow(ctx.db, ctx.actor.user, folderId, "browse");
  for (let i = 0; i < segments.length; i++) {
    const child = await findLiveChildFolder(ctx.db, folder.id, segments[i]);
    if (!child) return { folder, rights, missing: segments.slice(i) };
    const childRights = await resolveFolderRights(ctx.db, ctx.actor.user, child.id);
    // Contract (create folder): an inaccessible folder of that name is a 403.
    if (!childRights.browse) throw forbidden("A folder of that name exists that you cannot access");
    folder = child;
    rights = childRights;
  }
  return { folder, rights, missing: [] };
}
