import "server-only";
import { and, asc, count, eq, inArray, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { fileVersions, files, folders, type User } from "@/db/schema";
import { ZIP_MAX_ENTRIES } from "@/lib/contracts/zip";
import { AppError } from "../errors";
import { uniqueNamer } from "../files/names";
import { idArray } from "../folders/id-array";
import { resolveRightsMany } from "../rights/resolve-many";
import type { ZipEntry } from "../shares/zip-entries";

/** The note added to a zip that left files out, named so it sorts apart from the documents. */
export const LEFT_OUT_NOTE = "_not-included.txt";

type Selection = { folderIds: number[]; versionIds: number[] };

/**
 * What a user's zip holds (GET /api/zip/…, issue 29): the selected files and folders, each folder
 * with its live subtree. Rights are checked per folder in one query: a selected folder the user
 * cannot browse is a 404 (api.md: never leak what cannot be browsed), a selected file in one is a
 * 403 as for a download; subfolders that cannot be browsed are left out silently, files without
 * the download right are left out and listed by path in a note inside the zip. Top-level names
 * that clash get " (2)", " (3)". Only metadata is loaded; more than ZIP_MAX_ENTRIES entries is a 413.
 */
export async function listUserZipEntries(db: DbOrTx, user: Pick<User, "id" | "role">, selection: Selection): Promise<ZipEntry[]> {
  const [roots, picked] = await Promise.all([
    selection.folderIds.length
      ? db.select().from(folders).where(and(inArray(folders.id, selection.folderIds), isNull(folders.deletedAt)))
      : Promise.resolve([]),
    selection.versionIds.length
      ? db
          .select({ version: fileVersions, name: files.name, folderId: files.folderId })
          .from(fileVersions)
          .innerJoin(files, eq(files.id, fileVersions.fileId))
          .innerJoin(folders, eq(folders.id, files.folderId))
          .where(and(inArray(fileVersions.id, selection.versionIds), isNull(fileVersions.deletedAt), isNull(files.deletedAt), isNull(folders.deletedAt)))
      : Promise.resolve([]),
  ]);
  if (roots.length !== new Set(selection.folderIds).size) throw new AppError("not_found", "Folder not found");
  if (picked.length !== new Set(selection.versionIds).size) throw new AppError("not_found", "File not found");

  // The selection's own rights first: what cannot be browsed is refused before its size is told.
  const rights = await resolveRightsMany(db, user, [...roots.map((r) => r.id), ...picked.map((p) => p.folderId)]);
  const can = (folderId: number, right: "browse" | "download") => rights.get(folderId)?.[right] === true;
  if (roots.some((r) => !can(r.id, "browse"))) throw new AppError("not_found", "Folder not found");
  if (picked.some((p) => !can(p.folderId, "browse"))) throw new AppError("forbidden", "You may not browse the folder of this file");

  const subtree = roots.length
    ? await db
        .select({ id: folders.id, parentId: folders.parentId, name: folders.name, modifiedAt: folders.modifiedAt })
        .from(folders)
        .where(and(isNull(folders.deletedAt), sql`${folders.path} && ${idArray(roots.map((r) => r.id))}`))
        .orderBy(asc(sql`cardinality(${folders.path})`), asc(folders.name))
        // One past the cap is enough to refuse: a huge tree is never loaded whole.
        .limit(ZIP_MAX_ENTRIES + 1)
    : [];
  if (roots.length + subtree.length + picked.length > ZIP_MAX_ENTRIES) throw tooLarge();
  for (const [id, found] of await resolveRightsMany(db, user, subtree.map((f) => f.id))) rights.set(id, found);

  const topName = uniqueNamer();
  const entries: ZipEntry[] = [];
  const leftOut: string[] = [];
  // In the order of the selection, so that clashing names are numbered, and left-out files listed, the same way each time.
  const order = new Map(selection.versionIds.map((id, index) => [id, index]));
  picked.sort((x, y) => order.get(x.version.id)! - order.get(y.version.id)!);
  for (const { version, name, folderId } of picked) {
    const path = topName(name, true);
    if (can(folderId, "download")) entries.push({ path, kind: "file", blobId: version.blobId, size: version.size, mime: version.mime, mtime: version.modifiedAt });
    else leftOut.push(path);
  }

  const paths = new Map<number, string>();
  for (const root of roots) {
    paths.set(root.id, topName(root.name, false));
    entries.push({ path: `${paths.get(root.id)}/`, kind: "folder", mtime: root.modifiedAt });
  }
  for (const folder of subtree) {
    const parent = folder.parentId === null ? undefined : paths.get(folder.parentId);
    // A root inside another root keeps its own top-level place; an unbrowsable folder hides its subtree.
    if (parent === undefined || paths.has(folder.id) || !can(folder.id, "browse")) continue;
    paths.set(folder.id, `${parent}/${folder.name}`);
    entries.push({ path: `${parent}/${folder.name}/`, kind: "folder", mtime: folder.modifiedAt });
  }
  if (paths.size) {
    const inFolders = and(sql`${files.folderId} = ANY(${idArray(paths.keys())})`, isNull(files.deletedAt));
    const [{ n }] = await db.select({ n: count() }).from(files).where(inFolders);
    if (entries.length + n > ZIP_MAX_ENTRIES) throw tooLarge();
    const contained = await db
      .select({ folderId: files.folderId, name: files.name, blobId: fileVersions.blobId, size: fileVersions.size, mime: fileVersions.mime, mtime: fileVersions.modifiedAt })
      .from(files)
      .innerJoin(fileVersions, eq(fileVersions.id, files.currentVersionId))
      .where(and(inFolders, isNull(fileVersions.deletedAt)))
      .orderBy(asc(files.folderId), asc(files.name));
    for (const f of contained) {
      const path = `${paths.get(f.folderId)}/${f.name}`;
      if (can(f.folderId, "download")) entries.push({ path, kind: "file", blobId: f.blobId, size: f.size, mime: f.mime, mtime: f.mtime });
      else leftOut.push(path);
    }
  }
  if (leftOut.length) entries.push({ path: topName(LEFT_OUT_NOTE, true), kind: "text", text: leftOutNote(leftOut), mtime: new Date() });
  return entries;
}

function leftOutNote(paths: string[]): string {
  return ["These files were left out of this zip: you may see them but not download them.", "", ...paths, ""].join("\r\n");
}

const tooLarge = () => new AppError("payload_too_large", `A zip holds at most ${ZIP_MAX_ENTRIES} files and folders: download a smaller selection`, { max: ZIP_MAX_ENTRIES });
