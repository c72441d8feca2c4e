import "server-only";
import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { fileVersions, files, folders, type FileRow, type FileVersion, type Folder } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { findQuotaFolders, pendingInFolders, remainingQuota, usedInFolders } from "../quotas/assert-quota";
import { resolveRightsMany } from "../rights/resolve-many";
import type { DavTarget } from "./dav-path";
import { davSpaces } from "./dav-path";

/** One resource of a PROPFIND answer: a collection (root, space, folder) or a file's current version. */
export type DavResource =
  | { kind: "root"; segments: string[] }
  | { kind: "folder"; segments: string[]; folder: Folder }
  | { kind: "file"; segments: string[]; file: FileRow; version: FileVersion; folder: Folder };

export function resourceOf(target: DavTarget): DavResource | null {
  if (target.kind === "root") return { kind: "root", segments: [] };
  if (target.kind === "folder") return { kind: "folder", segments: target.segments, folder: target.folder };
  if (target.kind === "file") return { kind: "file", segments: target.segments, file: target.file, version: target.version, folder: target.folder };
  return null;
}

/** The members of a collection the caller may see: spaces at the root; browsable subfolders, and live files where the caller may read. */
export async function childrenOf(ctx: AuthedCtx, resource: DavResource): Promise<DavResource[]> {
  const all: DavResource[] = [];
  for await (const page of childPagesOf(ctx, resource)) all.push(...page);
  return all;
}

/** Files read per statement of a listing: each page is mapped and serialised before the next is read. */
const FILE_PAGE = 1000;

/**
 * childrenOf in pages: the spaces or the subfolders first, then the files, FILE_PAGE at a time by
 * id. A folder of 10,000 files never maps them in one synchronous stretch (issue 26: /api/health
 * waited 300-400 ms behind one listing), and on PGlite's one connection other requests' statements
 * run between the pages.
 */
export async function* childPagesOf(ctx: AuthedCtx, resource: DavResource): AsyncGenerator<DavResource[]> {
  if (resource.kind === "root") {
    yield (await davSpaces(ctx)).map((s) => ({ kind: "folder", segments: [s.folder.name], folder: s.folder }));
    return;
  }
  if (resource.kind !== "folder") return;
  const parent = resource.folder;
  const subfolders = await ctx.db
    .select()
    .from(folders)
    .where(and(eq(folders.parentId, parent.id), isNull(folders.deletedAt)));
  // The folder's own rights ride on its subfolders' resolution (one statement).
  const rights = await resolveRightsMany(ctx.db, ctx.actor.user, [parent.id, ...subfolders.map((f) => f.id)]);
  let visible: DavResource[] = subfolders.filter((f) => rights.get(f.id)?.browse).map((f) => ({ kind: "folder" as const, segments: [...resource.segments, f.name], folder: f }));
  // Files are listed with the read right on their folder only, as GET /folder lists them (browse alone shows the subfolders).
  if (!rights.get(parent.id)?.read) {
    yield visible;
    return;
  }
  // The subfolders go with the first page of files: a listing under a page costs what it did unpaged.
  for (let after = 0; ; ) {
    const page = await ctx.db
      .select({ file: files, version: fileVersions })
      .from(files)
      .innerJoin(fileVersions, eq(fileVersions.id, files.currentVersionId))
      .where(and(eq(files.folderId, parent.id), gt(files.id, after), isNull(files.deletedAt), isNull(fileVersions.deletedAt)))
      .orderBy(asc(files.id))
      .limit(FILE_PAGE);
    yield [...visible, ...page.map(({ file, version }) => ({ kind: "file" as const, segments: [...resource.segments, file.name], file, version, folder: parent }))];
    visible = [];
    if (page.length < FILE_PAGE) return;
    after = page[page.length - 1].file.id;
  }
}

/** The ETag of a resource: a file's MD5 (as downloads send it); a folder's id and change time. */
export function etagOf(resource: DavResource): string {
  if (resource.kind === "file") return `"${resource.version.md5}"`;
  if (resource.kind === "folder") return `"d${resource.folder.id}-${resource.folder.modifiedAt.getTime()}"`;
  return '"root"';
}

/** What keys a resource's stored properties and locks: `f<id>` for a file, `d<id>` for a folder; the root has none. */
export function resourceKey(resource: DavResource): string | null {
  if (resource.kind === "file") return `f${resource.file.id}`;
  if (resource.kind === "folder") return `d${resource.folder.id}`;
  return null;
}

/** The key of a row stored against a file or a folder (dead properties, locks), as resourceKey gives it. */
export const rowKey = (row: { fileId: number | null; folderId: number | null }) => (row.fileId !== null ? `f${row.fileId}` : `d${row.folderId}`);

/** The ids of the files and of the folders among resources. */
export function idsOf(resources: DavResource[]): { fileIds: number[]; folderIds: number[] } {
  return {
    fileIds: resources.flatMap((r) => (r.kind === "file" ? [r.file.id] : [])),
    folderIds: resources.flatMap((r) => (r.kind === "folder" ? [r.folder.id] : [])),
  };
}

export type DavQuota = { used: number; available: number | null };

/**
 * quota-used-bytes / quota-available-bytes (RFC 4331) of the collections among resources, by
 * folder id; available is omitted when unlimited. As remainingQuota counts them (the caller's
 * quota, the nearest folder quota, the platform's), in a bounded number of statements whatever
 * the number of collections.
 */
export async function quotasOf(ctx: AuthedCtx, resources: DavResource[]): Promise<Map<number, DavQuota>> {
  const listed = resources.flatMap((r) => (r.kind === "folder" ? [r.folder] : []));
  if (listed.length === 0) return new Map();
  const ids = listed.map((f) => f.id);
  const [used, governing, room] = await Promise.all([
    usedInFolders(ctx.db, ids),
    findQuotaFolders(ctx.db, listed),
    remainingQuota(ctx.db, { userId: ctx.actor.user.id }),
  ]);
  const limited = [...new Set([...governing.values()].flatMap((q) => (q && q.quota > 0 ? [q.id] : [])))];
  const [limitedUsed, limitedPending] = await Promise.all([usedInFolders(ctx.db, limited), pendingInFolders(ctx.db, limited)]);
  const quotas = new Map<number, DavQuota>();
  for (const id of ids) {
    const q = governing.get(id);
    const left = q && q.quota > 0 ? Math.min(room, q.quota - limitedUsed.get(q.id)! - limitedPending.get(q.id)!) : room;
    quotas.set(id, { used: used.get(id) ?? 0, available: Number.isFinite(left) ? Math.max(0, left) : null });
  }
  return quotas;
}
