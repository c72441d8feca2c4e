import "server-only";
import { and, count, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";
import { fileVersions, files, folders, type FileRow, type FileVersion, type Folder, type User } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { presentFiles, type FileJson } from "../files/present-files";
import type { Mode } from "../present/mode";
import { resolveRightsMany } from "../rights/resolve-many";
import type { Rights } from "../rights/rights";
import { targetIdsOf } from "../rights/targets";
import { idArray, idIn, inChunks } from "./id-array";
import { fileOrderBy, folderOrderBy, joinFileOwners, needsVersion, type Order } from "./listing-order";
import { presentFolders, type FolderJson } from "./present-folders";

/** 1 folders only, 2 files only (no traversal below the first level), 3 both. */
export type ContentOptions = { mode: Mode; filter: number; order?: Order };
export type Page = { offset: number; limit: number };
/** A folder the caller may browse, with their rights and its serialised form. */
export type FolderNode = { folder: Folder; rights: Rights; json: FolderJson };

/**
 * Gives each node its `content` ({folders, files}, folders first, each by name or `options.order`), then the
 * content of their subfolders for `levels` more levels (-1: the whole tree). One level costs a
 * bounded number of queries whatever its size. `page` pages the first level (one node only) and
 * adds `content_total`. Files need the read right; subfolders need their own browse right.
 * Returns the subfolders of the first level.
 */
export async function attachContent(ctx: AuthedCtx, nodes: FolderNode[], levels: number, options: ContentOptions, page?: Page): Promise<FolderNode[]> {
  const firstLevel = await loadLevel(ctx, nodes, options, page);
  let level = firstLevel;
  let remaining = levels;
  while (level.length > 0 && remaining !== 0 && options.filter !== 2) {
    level = await loadLevel(ctx, level, options);
    if (remaining > 0) remaining--;
  }
  return firstLevel;
}

async function loadLevel(ctx: AuthedCtx, parents: FolderNode[], options: ContentOptions, page?: Page): Promise<FolderNode[]> {
  const parentIds = parents.map((p) => p.folder.id);
  const readable = parents.filter((p) => p.rights.read).map((p) => p.folder.id);
  const wantFolders = options.filter !== 2;
  const wantFiles = options.filter !== 1 && readable.length > 0;

  const exceptions = wantFolders ? await findChildExceptions(ctx.db, ctx.actor.user, parentIds) : new Map<number, Rights>();
  const hidden = [...exceptions].filter(([, r]) => !r.browse).map(([id]) => id);
  const order = options.order ?? {};
  const folderWhere = and(idIn(folders.parentId, parentIds), isNull(folders.deletedAt), hidden.length ? sql`NOT (${folders.id} = ANY(${idArray(hidden)}))` : undefined);
  const fileWhere = and(idIn(files.folderId, readable), isNull(files.deletedAt));

  let childFolders: Folder[] = [];
  let fileRows: FileRowPair[] = [];
  let total: number | undefined;
  if (page) {
    const nbFolders = wantFolders ? await countOf(ctx.db, folders, folderWhere) : 0;
    const folderLimit = Math.max(0, Math.min(page.limit, nbFolders - page.offset));
    const fileLimit = page.limit - folderLimit;
    // Once the folders are counted, the files' count and the page's rows do not wait for each
    // other: both index walks of a large folder run at once, on two pooled connections.
    let nbFiles: number;
    [nbFiles, childFolders, fileRows] = await Promise.all([
      wantFiles ? countOf(ctx.db, files, fileWhere) : 0,
      folderLimit > 0 ? selectFolders(ctx.db, folderWhere, order).limit(folderLimit).offset(page.offset) : [],
      wantFiles && fileLimit > 0 ? selectFiles(ctx.db, fileWhere, order, { limit: fileLimit, offset: Math.max(0, page.offset - nbFolders) }) : [],
    ]);
    total = nbFolders + nbFiles;
  } else {
    if (wantFolders) childFolders = await selectFolders(ctx.db, folderWhere, order);
    if (wantFiles) fileRows = await selectFiles(ctx.db, fileWhere, order);
  }

  // A child without a right or owner of its own has exactly its parent's rights.
  const parentRights = new Map(parents.map((p) => [p.folder.id, p.rights]));
  const childRights = new Map(childFolders.map((f) => [f.id, exceptions.get(f.id) ?? parentRights.get(f.parentId!)!]));
  const folderJson = await inChunks(childFolders, 1000, (chunk) => presentFolders(ctx, chunk, options.mode, childRights));
  const byId = new Map(parents.map((p) => [p.folder.id, p.folder]));
  const fileJson = await inChunks(fileRows, 5000, (chunk) =>
    presentFiles(ctx, chunk.map((r) => ({ file: r.file, version: r.version, folder: byId.get(r.file.folderId)! })), options.mode, { rights: parentRights }),
  );

  const content = new Map(parents.map((p) => [p.folder.id, { folders: [] as FolderJson[], files: [] as FileJson[] }]));
  const children = childFolders.map((folder, i) => ({ folder, rights: childRights.get(folder.id)!, json: folderJson[i] }));
  for (const child of children) content.get(child.folder.parentId!)!.folders.push(child.json);
  fileRows.forEach((r, i) => content.get(r.file.folderId)!.files.push(fileJson[i]));
  for (const p of parents) {
    p.json.content = content.get(p.folder.id);
    if (total !== undefined) p.json.content_total = total;
  }
  return children;
}

const selectFolders = (db: DbOrTx, where: SQL | undefined, order: Order) =>
  db.select().from(folders).where(where).orderBy(folders.parentId, ...folderOrderBy(order)).$dynamic();

type FileRowPair = { file: FileRow; version: FileVersion };

/**
 * Live files with their current version, by folder then `order`, reading only what listings show
 * (no blob id, no meta): a 100,000-file listing parses far fewer values.
 */
async function selectFiles(db: DbOrTx, where: SQL | undefined, order: Order, page?: { limit: number; offset: number }): Promise<FileRowPair[]> {
  // A page by name or date picks its ids on `files` alone, so the versions of the skipped rows are never joined.
  const ids = () => {
    const q = db.select({ id: files.id }).from(files).$dynamic();
    return needsVersion(order) ? joinFileOwners(q.innerJoin(fileVersions, eq(fileVersions.id, files.currentVersionId)), order).where(where) : q.where(where);
  };
  const scope = page ? inArray(files.id, ids().orderBy(...fileOrderBy(order)).limit(page.limit).offset(page.offset)) : where;
  const query = db
    .select({
      file: { id: files.id, guid: files.guid, folderId: files.folderId, name: files.name, nameKey: files.nameKey, ownerId: files.ownerId, currentVersionId: files.currentVersionId, createdAt: files.createdAt, modifiedAt: files.modifiedAt },
      version: { id: fileVersions.id, fileId: fileVersions.fileId, number: fileVersions.number, size: fileVersions.size, md5: fileVersions.md5, mime: fileVersions.mime, creatorId: fileVersions.creatorId, createdAt: fileVersions.createdAt, modifiedAt: fileVersions.modifiedAt },
    })
    .from(files)
    .innerJoin(fileVersions, eq(fileVersions.id, files.currentVersionId))
    .$dynamic();
  const found = await joinFileOwners(query, order)
    .where(scope)
    .orderBy(files.folderId, ...fileOrderBy(order));
  // Literal objects (no spreads): this runs once per file of a folder listing.
  return found.map(({ file: f, version: v }) => ({
    file: { id: f.id, guid: f.guid, folderId: f.folderId, name: f.name, nameKey: f.nameKey, ownerId: f.ownerId, currentVersionId: f.currentVersionId, createdAt: f.createdAt, modifiedAt: f.modifiedAt, deletedAt: null, trashId: null },
    version: { id: v.id, fileId: v.fileId, number: v.number, blobId: null, size: v.size, md5: v.md5, mime: v.mime, creatorId: v.creatorId, createdAt: v.createdAt, modifiedAt: v.modifiedAt, meta: null, deletedAt: null },
  }));
}

async function countOf(db: DbOrTx, table: typeof folders | typeof files, where: SQL | undefined): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(table).where(where);
  return Number(n);
}

/**
 * The children of browsable parents whose rights may differ from their parent's: those carrying a
 * right for one of the user's targets, or owned by the user below a parent they do not own. Only
 * these are resolved; every other child has its parent's rights. Administrators see everything.
 */
export async function findChildExceptions(db: DbOrTx, user: Pick<User, "id" | "role">, parentIds: number[]): Promise<Map<number, Rights>> {
  if (user.role === 3 || parentIds.length === 0) return new Map();
  const found = rows<{ id: number }>(
    await db.execute(sql`
      SELECT c.id FROM rights r JOIN folders c ON c.id = r.folder_id
      WHERE r.target_id IN ${targetIdsOf(user.id)} AND c.parent_id = ANY(${idArray(parentIds)}) AND c.deleted_at IS NULL
      UNION
      SELECT c.id FROM folders c JOIN folders p ON p.id = c.parent_id
      WHERE c.owner_id = ${user.id} AND p.owner_id <> ${user.id} AND c.parent_id = ANY(${idArray(parentIds)}) AND c.deleted_at IS NULL`),
  );
  return resolveRightsMany(db, user, found.map((r) => Number(r.id)));
}

/** Serialises browsable folders into nodes that attachContent can fill. */
export async function toNodes(ctx: AuthedCtx, list: { folder: Folder; rights: Rights }[], mode: Mode): Promise<FolderNode[]> {
  const json = await presentFolders(ctx, list.map((e) => e.folder), mode, new Map(list.map((e) => [e.folder.id, e.rights])));
  return list.map((e, i) => ({ ...e, json: json[i] }));
}

/** How many levels below a list of folders get content, for lists whose items are the first level (0 = none). */
export const levelsBelowList = (depth: number) => (depth === 0 ? null : depth < 0 ? -1 : depth - 1);
