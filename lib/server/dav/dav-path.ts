import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { fileVersions, files, type FileRow, type FileVersion, type Folder } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { AppError, forbidden } from "../errors";
import { nameKey, sameName } from "../files/names";
import { findLiveChildFolder } from "../folders/folder-names";
import { resolveFolderRights } from "../rights/resolve-rights";
import type { Rights } from "../rights/rights";
import { findAllRoots, type SpaceEntry } from "../spaces/find-spaces";

export const DAV_PREFIX = "/dav";

/**
 * What a WebDAV path names. `/dav/` is the root (the caller's spaces as collections), its first
 * segment a space by the name GET /folders gives, the rest folders and files below it.
 * `missing`: the last segment names nothing, in an existing `parent` (null at the root level);
 * `orphan`: a segment before the last names nothing (PUT and MKCOL answer 409, others 404).
 */
export type DavTarget =
  | { kind: "root"; segments: [] }
  | { kind: "folder"; folder: Folder; rights: Rights; isSpace: boolean; segments: string[] }
  | { kind: "file"; file: FileRow; version: FileVersion; folder: Folder; rights: Rights; segments: string[] }
  | { kind: "missing"; parent: { folder: Folder; rights: Rights } | null; name: string; segments: string[] }
  | { kind: "orphan"; segments: string[] };

/** The decoded segments of a /dav path; `.`/`..` and malformed escapes are a 400. */
export function davSegments(pathname: string): string[] {
  const rest = pathname === DAV_PREFIX ? "" : pathname.slice(DAV_PREFIX.length + 1);
  const segments: string[] = [];
  for (const raw of rest.split("/")) {
    if (raw === "") continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      throw new AppError("invalid_request", "Malformed percent-encoding in the path");
    }
    if (segment === "." || segment === ".." || segment.includes("/")) throw new AppError("invalid_request", "Path segments . and .. are not accepted");
    segments.push(segment);
  }
  return segments;
}

/** The href of a path (each segment percent-encoded), with a trailing slash for collections. */
export function davHref(segments: string[], collection: boolean): string {
  const path = segments.map((s) => encodeURIComponent(s)).join("/");
  return `${DAV_PREFIX}/${path}${path && collection ? "/" : ""}`;
}

/** The caller's spaces by name, as the root lists them (a name given twice: the first one). */
export async function davSpaces(ctx: AuthedCtx): Promise<SpaceEntry[]> {
  const seen = new Set<string>();
  const out: SpaceEntry[] = [];
  for (const { entry } of await findAllRoots(ctx.db, ctx.actor.user)) {
    const key = nameKey(entry.folder.name);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(entry);
  }
  return out;
}

/** The live file named `name` in a folder, with its current version. */
export async function findDavFile(ctx: AuthedCtx, folderId: number, name: string): Promise<{ file: FileRow; version: FileVersion } | undefined> {
  const [row] = await ctx.db
    .select({ file: files, version: fileVersions })
    .from(files)
    .innerJoin(fileVersions, eq(fileVersions.id, files.currentVersionId))
    .where(and(eq(files.folderId, folderId), isNull(files.deletedAt), isNull(fileVersions.deletedAt), sameName(files.nameKey, name)))
    .limit(1);
  return row;
}

/**
 * Resolves a path for the caller. The folder holding the target (or the target folder itself)
 * must be browsable (403 otherwise, as the API answers for a hidden folder).
 */
export async function resolveDavPath(ctx: AuthedCtx, segments: string[]): Promise<DavTarget> {
  if (segments.length === 0) return { kind: "root", segments: [] };
  const key = nameKey(segments[0]);
  const space = (await davSpaces(ctx)).find((s) => nameKey(s.folder.name) === key);
  if (!space) return segments.length === 1 ? { kind: "missing", parent: null, name: segments[0], segments } : { kind: "orphan", segments };
  let folder = space.folder;
  let rights: Rights | null = space.rights;
  for (let i = 1; i < segments.length; i++) {
    const last = i === segments.length - 1;
    const child = await findLiveChildFolder(ctx.db, folder.id, segments[i]);
    if (child) {
      folder = child;
      rights = null;
      continue;
    }
    if (!last) return { kind: "orphan", segments };
    rights ??= await browsable(ctx, folder.id);
    const found = await findDavFile(ctx, folder.id, segments[i]);
    if (found) return { kind: "file", ...found, folder, rights, segments };
    return { kind: "missing", parent: { folder, rights }, name: segments[i], segments };
  }
  rights ??= await browsable(ctx, folder.id);
  return { kind: "folder", folder, rights, isSpace: segments.length === 1, segments };
}

async function browsable(ctx: AuthedCtx, folderId: number): Promise<Rights> {
  const rights = await resolveFolderRights(ctx.db, ctx.actor.user, folderId);
  if (!rights.browse) throw forbidden("You may not browse this folder");
  return rights;
}
