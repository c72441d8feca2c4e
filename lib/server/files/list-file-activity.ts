import "server-only";
import { and, desc, eq, isNull, lt } from "drizzle-orm";
import { fileVersions, files, folders } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import type { Mode } from "../present/mode";
import { resolveRights } from "../rights/resolve-rights";
import type { Rights } from "../rights/rights";
import { presentFiles, type FileItem } from "./present-files";

/** The contract's limit for `all`; the caller's own history is bounded the same way. */
export const ACTIVITY_LIMIT = 200;
const BATCH = 500;
/** Rows scanned at most to find readable changes, so a caller with few rights costs a bounded time. */
const SCAN_LIMIT = 10_000;

export type ActivityOptions = { all: boolean; offset: number; limit: number; mode: Mode };

/**
 * GET /file/activity: the versions the caller created, newest first, or with `all` the last 200
 * version changes on the platform. Only files in folders the caller may read are listed: recent
 * versions are scanned in batches, the rights of each batch's folders resolved in one query.
 */
export async function listFileActivity(ctx: AuthedCtx, options: ActivityOptions) {
  const user = ctx.actor.user;
  const rights = new Map<number, Rights>();
  const readable: FileItem[] = [];
  // Version ids grow with time: paging on them is exact where timestamps could tie.
  let cursor: number | null = null;

  for (let scanned = 0; readable.length < ACTIVITY_LIMIT && scanned < SCAN_LIMIT; scanned += BATCH) {
    const conditions = [isNull(fileVersions.deletedAt), isNull(files.deletedAt), isNull(folders.deletedAt)];
    if (!options.all) conditions.push(eq(fileVersions.creatorId, user.id));
    if (cursor !== null) conditions.push(lt(fileVersions.id, cursor));
    const batch = await ctx.db
      .select({ version: fileVersions, file: files, folder: folders })
      .from(fileVersions)
      .innerJoin(files, eq(files.id, fileVersions.fileId))
      .innerJoin(folders, eq(folders.id, files.folderId))
      .where(and(...conditions))
      .orderBy(desc(fileVersions.id))
      .limit(BATCH);
    const unknown = batch.map((r) => r.folder.id).filter((id) => !rights.has(id));
    for (const [id, r] of await resolveRights(ctx.db, user, unknown)) rights.set(id, r);
    readable.push(...batch.filter((r) => rights.get(r.folder.id)?.read).slice(0, ACTIVITY_LIMIT - readable.length));
    if (batch.length < BATCH) break;
    cursor = batch[batch.length - 1].version.id;
  }

  const page = readable.slice(options.offset, options.offset + options.limit);
  const objects = await presentFiles(ctx, page, options.mode, { rights });
  return envelope(objects, options.offset, readable.length);
}
