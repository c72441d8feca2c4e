import "server-only";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { fileLocks, files, folders } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { getFolderOrThrow } from "../folders/get-folder";
import { envelope } from "../present/envelope";
import { resolveRights } from "../rights/resolve-rights";
import { loadOwnerNames } from "../users/owner-names";
import { serializeLock } from "./serialize-lock";

/**
 * GET /locks/(folderId): the locks on live files anywhere below the folder; GET /locks without a
 * folder: the locks the caller holds. Either way only files in folders the caller may read
 * appear (their rights resolved in one query).
 */
export async function listLocks(ctx: AuthedCtx, folderId: number | undefined, paging: { offset: number; limit: number }) {
  const user = ctx.actor.user;
  const scope = folderId === undefined ? eq(fileLocks.ownerId, user.id) : await subtreeOf(ctx, folderId);
  const found = await ctx.db
    .select({ lock: fileLocks, file: files })
    .from(fileLocks)
    .innerJoin(files, and(eq(files.id, fileLocks.fileId), isNull(files.deletedAt)))
    .innerJoin(folders, and(eq(folders.id, files.folderId), isNull(folders.deletedAt)))
    .where(scope)
    .orderBy(desc(fileLocks.createdAt), desc(fileLocks.fileId));
  const rights = await resolveRights(ctx.db, user, found.map((r) => r.file.folderId));
  const visible = found.filter((r) => rights.get(r.file.folderId)?.read);
  const page = visible.slice(paging.offset, paging.offset + paging.limit);
  const names = await loadOwnerNames(ctx.db, page.map((r) => r.lock.ownerId));
  const objects = page.map(({ lock, file }) => serializeLock(file, lock, user.id, names.get(lock.ownerId) ?? ""));
  return envelope(objects, paging.offset, visible.length);
}

async function subtreeOf(ctx: AuthedCtx, folderId: number) {
  const { folder } = await getFolderOrThrow(ctx.db, ctx.actor.user, folderId, "browse");
  return sql`(${folders.id} = ${folder.id} OR ${folders.path} @> ARRAY[${folder.id}::int])`;
}
