import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { fileVersions, files, folders, type FileRow, type FileVersion, type Folder } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { remainingQuota, usedInFolder } from "../quotas/assert-quota";
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

/** The members of a collection the caller may see: spaces at the root; browsable subfolders and live files in a folder. */
export async function childrenOf(ctx: AuthedCtx, resource: DavResource): Promise<DavResource[]> {
  if (resource.kind === "root") {
    return (await davSpaces(ctx)).map((s) => ({ kind: "folder", segments: [s.folder.name], folder: s.folder }));
  }
  if (resource.kind !== "folder") return [];
  const parent = resource.folder;
  const subfolders = await ctx.db
    .select()
    .from(folders)
    .where(and(eq(folders.parentId, parent.id), isNull(folders.deletedAt)));
  const rights = subfolders.length ? await resolveRightsMany(ctx.db, ctx.actor.user, subfolders.map((f) => f.id)) : new Map();
  const visible = subfolders.filter((f) => rights.get(f.id)?.browse);
  const list = await ctx.db
    .select({ file: files, version: fileVersions })
    .from(files)
    .innerJoin(fileVersions, eq(fileVersions.id, files.currentVersionId))
    .where(and(eq(files.folderId, parent.id), isNull(files.deletedAt), isNull(fileVersions.deletedAt)));
  return [
    ...visible.map((f) => ({ kind: "folder" as const, segments: [...resource.segments, f.name], folder: f })),
    ...list.map(({ file, version }) => ({ kind: "file" as const, segments: [...resource.segments, file.name], file, version, folder: parent })),
  ];
}

/** The ETag of a resource: a file's MD5 (as downloads send it); a folder's id and change time. */
export function etagOf(resource: DavResource): string {
  if (resource.kind === "file") return `"${resource.version.md5}"`;
  if (resource.kind === "folder") return `"d${resource.folder.id}-${resource.folder.modifiedAt.getTime()}"`;
  return '"root"';
}

/** quota-used-bytes / quota-available-bytes (RFC 4331) of a collection; available is omitted when unlimited. */
export async function quotaOf(ctx: AuthedCtx, resource: DavResource): Promise<{ used: number; available: number | null } | null> {
  if (resource.kind !== "folder") return null;
  const [used, room] = await Promise.all([usedInFolder(ctx.db, resource.folder.id), remainingQuota(ctx.db, { userId: ctx.actor.user.id, folder: resource.folder })]);
  return { used, available: Number.isFinite(room) ? Math.max(0, room) : null };
}
