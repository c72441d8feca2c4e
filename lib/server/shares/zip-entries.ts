import "server-only";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { fileVersions, files, folders, type ShareRow } from "@/db/schema";
import { uniqueNamer } from "../files/names";
import { idArray } from "../folders/id-array";
import { loadRootItems } from "./share-items";

export type ZipEntry =
  | { path: string; kind: "file"; blobId: string | null; size: number; mime: string; mtime: Date }
  | { path: string; kind: "folder"; mtime: Date }
  /** Bytes written by the server itself (the note of what a user's zip left out). */
  | { path: string; kind: "text"; text: string; mtime: Date };

/**
 * Everything a share exposes, as zip paths: file roots at the top, folder roots with their live
 * subtree. Two roots with the same name get " (2)", " (3)"; a folder whose way up to the root is
 * broken (a trashed ancestor) is left out with its content. Only metadata is loaded: the bytes
 * are read one file at a time while the zip streams.
 */
export async function listZipEntries(db: DbOrTx, share: Pick<ShareRow, "id" | "ownerId">): Promise<ZipEntry[]> {
  const roots = await loadRootItems(db, share);
  const topName = uniqueNamer();
  const entries: ZipEntry[] = roots.files.map(({ file, version }) => ({ path: topName(file.name, true), kind: "file", blobId: version.blobId, size: version.size, mime: version.mime, mtime: version.modifiedAt }));

  for (const root of roots.folders) {
    const subtree = await db
      .select({ id: folders.id, parentId: folders.parentId, name: folders.name, modifiedAt: folders.modifiedAt })
      .from(folders)
      .where(and(isNull(folders.deletedAt), sql`${folders.path} @> ${idArray([root.id])}`))
      .orderBy(asc(sql`cardinality(${folders.path})`), asc(folders.name));
    const paths = new Map<number, string>([[root.id, topName(root.name, false)]]);
    entries.push({ path: `${paths.get(root.id)}/`, kind: "folder", mtime: root.modifiedAt });
    for (const folder of subtree) {
      const parent = folder.parentId === null ? undefined : paths.get(folder.parentId);
      if (parent === undefined) continue;
      paths.set(folder.id, `${parent}/${folder.name}`);
      entries.push({ path: `${parent}/${folder.name}/`, kind: "folder", mtime: folder.modifiedAt });
    }
    const contained = await db
      .select({ folderId: files.folderId, name: files.name, blobId: fileVersions.blobId, size: fileVersions.size, mime: fileVersions.mime, mtime: fileVersions.modifiedAt })
      .from(files)
      .innerJoin(fileVersions, eq(fileVersions.id, files.currentVersionId))
      .where(and(sql`${files.folderId} = ANY(${idArray(paths.keys())})`, isNull(files.deletedAt), isNull(fileVersions.deletedAt)))
      .orderBy(asc(files.folderId), asc(files.name));
    for (const f of contained) entries.push({ path: `${paths.get(f.folderId)}/${f.name}`, kind: "file", blobId: f.blobId, size: f.size, mime: f.mime, mtime: f.mtime });
  }
  return entries;
}

/** Formats that are compressed already gain nothing from deflate: stored as they are, saving CPU. */
export function isCompressedAlready(mime: string): boolean {
  return (
    /^(image|video|audio)\//.test(mime) && mime !== "image/svg+xml" && mime !== "image/bmp" && mime !== "audio/wav"
  ) || /(zip|gzip|x-7z|x-rar|x-bzip2|x-xz|zstd|openxmlformats|opendocument|epub|pdf)/.test(mime);
}
