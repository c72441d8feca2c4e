import "server-only";
import type { Folder } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { forbidden } from "../errors";
import { getPlatformConfig } from "../config/platform-config";
import { findLiveFileForUpload } from "../files/live-files";
import { validateName } from "../files/names";
import { createFolder } from "../folders/create-folder";
import { findLiveChildFolder } from "../folders/folder-names";
import { getFolderOrThrow } from "../folders/get-folder";
import { assertLockAllows } from "../locks/assert-not-locked";
import { exhausted } from "../quotas/assert-quota";
import { exceededQuota, readQuotaStanding, roomLeft } from "../quotas/quota-standing";
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
 * The admission of an upload: what commitUpload will check, done before any byte is stored, so a
 * doomed upload is refused at once (404 folder, 403 right, 423 lock, 507 quota for the declared
 * size) without writing anything: folders of `targetPath` that do not exist yet only need the
 * write right where they would start. Without `targetPath`, one round trip: the folder with the
 * caller's rights, the file of that name with its lock and the quotas are asked together. Returns
 * the deepest existing folder of the path, whose quotas apply, and the bytes they still leave
 * (`room`, Infinity when none applies), to cut a body off while it streams.
 */
export async function assertUploadAllowed(ctx: AuthedCtx, target: UploadTarget, declaredSize?: number): Promise<{ folder: Folder; room: number }> {
  const { db } = ctx;
  const user = ctx.actor.user;
  const name = validateName(target.name);
  const segments = splitTargetPath(target.targetPath);
  // A path is walked first (one lookup per segment); without one, the folder is known by its id.
  const walked = segments.length > 0 ? await walkTargetPath(ctx, target.folderId, segments) : undefined;
  const folderId = walked?.folder.id ?? target.folderId;
  const lookUp = !target.neverOverwrite && (walked?.missing.length ?? 0) === 0;
  const quotas = { userId: user.id, folderId, platformQuota: (await getPlatformConfig(db)).quota };
  // The quotas of a folder that turns out not to be browsable are simply not used.
  const [access, existing, standing] = await Promise.all([
    walked ?? getFolderOrThrow(db, user, folderId, "browse"),
    lookUp ? findLiveFileForUpload(db, folderId, name) : undefined,
    readQuotaStanding(db, quotas),
  ]);
  const { folder, rights } = access;
  if (walked && walked.missing.length > 0) {
    if (!rights.write) throw forbidden("Creating the folders of targetPath needs the write right");
  } else if (!existing) {
    if (!rights.write) throw forbidden("Adding a file needs the write right in this folder");
  } else {
    if (!rights.edit) throw forbidden("A new version needs the edit right in this folder");
    assertLockAllows(existing.lock, user.id);
  }
  const exceeded = declaredSize !== undefined && declaredSize > 0 ? exceededQuota(standing, declaredSize) : null;
  if (exceeded) throw exhausted(exceeded);
  return { folder, room: roomLeft(standing) };
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
