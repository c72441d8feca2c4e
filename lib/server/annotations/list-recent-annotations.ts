import "server-only";
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { annotations, files, folders } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { resolveRights } from "../rights/resolve-rights";
import { presentAnnotations } from "./present-annotations";

/** Bounds the work of one call on a busy platform: the newest annotations of the week are scanned. */
const SCAN_LIMIT = 5_000;

/**
 * GET /annotations/all: annotations of the last 7 days on live files and folders the caller may
 * read, newest first, in the envelope. Rights of all the folders involved resolve in one query.
 */
export async function listRecentAnnotations(ctx: AuthedCtx, page: { offset: number; limit: number }) {
  const folderOfTarget = sql`coalesce(${files.folderId}, case when ${annotations.targetType} = 'folder' then ${annotations.targetId} end)`;
  const rows = await ctx.db
    .select({ annotation: annotations, folderId: folders.id })
    .from(annotations)
    .leftJoin(files, and(eq(annotations.targetType, "file"), eq(files.id, annotations.targetId), isNull(files.deletedAt)))
    .innerJoin(folders, and(eq(folders.id, folderOfTarget), isNull(folders.deletedAt)))
    .where(and(isNull(annotations.deletedAt), gt(annotations.createdAt, sql`now() - interval '7 days'`)))
    .orderBy(desc(annotations.createdAt), desc(annotations.id))
    .limit(SCAN_LIMIT);
  const rights = await resolveRights(ctx.db, ctx.actor.user, [...new Set(rows.map((r) => r.folderId))]);
  const readable = rows.filter((r) => {
    const granted = rights.get(r.folderId);
    return granted?.browse && granted.read;
  });
  const pageRows = readable.slice(page.offset, page.offset + page.limit).map((r) => r.annotation);
  return envelope(await presentAnnotations(ctx.db, pageRows), page.offset, readable.length);
}
