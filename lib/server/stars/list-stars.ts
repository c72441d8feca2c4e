import "server-only";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { fileVersions, files, folders, stars } from "@/db/schema";
import type { StarResponse } from "@/lib/contracts/stars";
import type { AuthedCtx } from "../context";
import { presentFiles } from "../files/present-files";
import { loadPathCrumbs } from "../folders/path-names";
import { presentFolders } from "../folders/present-folders";
import { envelope } from "../present/envelope";
import { resolveRightsMany } from "../rights/resolve-many";

/** Microseconds: two stars of one click fall in the same millisecond, which a Date would tie. */
const starredAt = sql<number>`(extract(epoch from ${stars.createdAt}) * 1000000)::float8`.mapWith(Number);

/** Stars read at most: a list past that is not a shortcut any more, and the read stays bounded. */
export const STARS_LIMIT = 2000;

/**
 * GET /stars (issue 29): the caller's starred files and folders, newest star first, in the list
 * envelope. What the caller can no longer see (right removed, trashed, deleted) is left out, not
 * refused: a file needs the read right on its folder (as listings show files), a folder browse.
 * Files carry their current version's id. A bounded number of queries whatever the count.
 */
export async function listStars(ctx: AuthedCtx, page: { offset: number; limit: number }) {
  const user = ctx.actor.user;
  const [starredFiles, starredFolders] = await Promise.all([
    ctx.db
      .select({ date: stars.createdAt, at: starredAt, file: files, version: fileVersions, folder: folders })
      .from(stars)
      .innerJoin(files, and(eq(files.id, stars.targetId), isNull(files.deletedAt)))
      .innerJoin(fileVersions, and(eq(fileVersions.id, files.currentVersionId), isNull(fileVersions.deletedAt)))
      .innerJoin(folders, and(eq(folders.id, files.folderId), isNull(folders.deletedAt)))
      .where(and(eq(stars.userId, user.id), eq(stars.targetType, "file")))
      .orderBy(desc(stars.createdAt))
      .limit(STARS_LIMIT),
    ctx.db
      .select({ date: stars.createdAt, at: starredAt, folder: folders })
      .from(stars)
      .innerJoin(folders, and(eq(folders.id, stars.targetId), isNull(folders.deletedAt)))
      .where(and(eq(stars.userId, user.id), eq(stars.targetType, "folder")))
      .orderBy(desc(stars.createdAt))
      .limit(STARS_LIMIT),
  ]);
  const rights = await resolveRightsMany(ctx.db, user, [...starredFiles.map((s) => s.folder.id), ...starredFolders.map((s) => s.folder.id)]);
  const visible = [
    ...starredFiles.filter((s) => rights.get(s.folder.id)?.read).map((s) => ({ ...s, type: "file" as const })),
    ...starredFolders.filter((s) => rights.get(s.folder.id)?.browse).map((s) => ({ ...s, type: "folder" as const })),
  ].sort((a, b) => b.at - a.at);

  const shown = visible.slice(page.offset, page.offset + page.limit);
  const fileItems = shown.flatMap((s) => (s.type === "file" && "file" in s ? [s] : []));
  const folderItems = shown.filter((s) => s.type === "folder").map((s) => s.folder);
  const chainOf = (s: (typeof shown)[number]) => (s.type === "file" ? [...s.folder.path, s.folder.id] : s.folder.path);
  const [fileJson, folderJson, crumbsOf] = await Promise.all([
    presentFiles(ctx, fileItems, "light", { rights }),
    presentFolders(ctx, folderItems, "light", rights),
    loadPathCrumbs(ctx, shown.map(chainOf)),
  ]);
  const objects = new Map<string, StarResponse["object"]>([...fileJson.map((f, i) => [`file:${fileItems[i].file.id}`, f] as const), ...folderJson.map((f) => [`folder:${f.id}`, f] as const)]);
  const list: StarResponse[] = shown.map((s) => {
    const key = s.type === "file" && "file" in s ? `file:${s.file.id}` : `folder:${s.folder.id}`;
    const object = objects.get(key)!;
    return { type: s.type, id: object.id, name: object.name, path_crumbs: crumbsOf(chainOf(s)), date: s.date.toISOString(), object };
  });
  return envelope(list, page.offset, visible.length);
}
