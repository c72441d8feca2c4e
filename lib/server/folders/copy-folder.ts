import "server-only";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { rows, type Tx } from "@/db";
import { folders, type Folder } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import { isAdmin, type AuthedCtx } from "../context";
import { AppError, forbidden } from "../errors";
import { FOLDER_EVENT, recordEvent } from "../events/record-event";
import { nameKey } from "../files/names";
import type { Mode } from "../present/mode";
import { copyFolderDerivatives } from "../previews/copy-folder-derivatives";
import { assertQuota } from "../quotas/assert-quota";
import { resolveRightsMany } from "../rights/resolve-many";
import type { Rights } from "../rights/rights";
import { findLiveChildFolder, lockFolderName } from "./folder-names";
import { getFolderOrThrow } from "./get-folder";
import { idArray } from "./id-array";
import { presentFolders, type FolderJson } from "./present-folders";

/**
 * POST /folder?copy=(folderId): copies a folder tree into `parentId` in one transaction. The copy
 * holds the latest version of each file and shares its blob (no byte is written); the caller pays
 * the quota for those bytes. Only what the caller may see is copied: subfolders they may browse,
 * files of folders where they may read and download. 409 when the name is taken at the
 * destination (contract). The copy keeps no quota or purge setting of the source.
 */
export async function copyFolder(ctx: AuthedCtx, sourceId: number, parentId: number, mode: Mode): Promise<FolderJson> {
  const user = ctx.actor.user;
  const source = await getFolderOrThrow(ctx.db, user, sourceId, "read");
  if (!source.rights.download) throw forbidden("Copying a folder needs the download right on it");
  if (parentId === 0 && !isAdmin(user)) throw forbidden("Only administrators create folders at the top level");

  const copy = await ctx.db.transaction(async (tx) => {
    const dest = parentId === 0 ? null : await getFolderOrThrow(tx, user, parentId, "browse");
    if (dest && !dest.rights.write) throw forbidden("Copying into a folder needs the write right there");
    await lockFolderName(tx, dest?.folder.id ?? null, source.folder.name);
    if (await findLiveChildFolder(tx, dest?.folder.id ?? null, source.folder.name)) {
      throw new AppError("conflict", `A folder named "${source.folder.name}" already exists at the destination`);
    }
    const { subfolders, withFiles } = await snapshotVisibleTree(tx, user, source);
    const now = new Date();
    const [root] = await tx
      .insert(folders)
      .values({
        name: source.folder.name,
        parentId: dest?.folder.id ?? null,
        path: dest ? [...dest.folder.path, dest.folder.id] : [],
        ownerId: dest?.folder.ownerId ?? user.id,
        space: dest?.folder.space ?? "company",
        quota: dest ? -1 : 0,
        createdAt: now,
        modifiedAt: now,
      })
      .returning();
    const [{ bytes }] = rows<{ bytes: string | number }>(
      await tx.execute(sql`
        SELECT coalesce(sum(v.size), 0) AS bytes FROM files f JOIN file_versions v ON v.id = f.current_version_id
        WHERE f.folder_id = ANY(${idArray(withFiles)}) AND f.deleted_at IS NULL`),
    );
    await assertQuota(tx, { userId: user.id, folder: root }, Number(bytes), { lock: true });

    const newIds = await copySubfolders(tx, source.folder, root, subfolders);
    const nbFiles = await copyLatestVersions(tx, user.id, withFiles.map((old) => [old, newIds.get(old)!]), now);
    if (dest) await tx.update(folders).set({ modifiedAt: now }).where(eq(folders.id, dest.folder.id));
    await recordEvent(tx, ctx.request, { targetType: "folder", targetId: root.id, type: FOLDER_EVENT.created, actorId: user.id, data: { copy_of: source.folder.id } });
    await writeLog(tx, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_INSERT",
      message: `Copied folder ${source.folder.name} (${subfolders.length + 1} folders, ${nbFiles} files) into ${dest?.folder.name ?? "the top level"}`,
      objectType: "folder",
      objectId: root.id,
      object: root.name,
    });
    return root;
  });
  const [json] = await presentFolders(ctx, [copy], mode);
  return json;
}

/** The live subfolders the caller may browse (through visible parents), and the folders whose files they may copy. */
async function snapshotVisibleTree(tx: Tx, user: AuthedCtx["actor"]["user"], source: { folder: Folder; rights: Rights }) {
  const below = await tx
    .select()
    .from(folders)
    .where(and(sql`${folders.path} @> ARRAY[${source.folder.id}::int]`, isNull(folders.deletedAt)))
    .orderBy(asc(sql`cardinality(${folders.path})`), folders.id);
  const rights = await resolveRightsMany(tx, user, below.map((f) => f.id));
  rights.set(source.folder.id, source.rights);
  const visible = new Set([source.folder.id]);
  const subfolders = below.filter((f) => visible.has(f.parentId!) && rights.get(f.id)!.browse && visible.add(f.id));
  const withFiles = [...visible].filter((id) => rights.get(id)!.read && rights.get(id)!.download);
  return { subfolders, withFiles };
}

/** Inserts the copies parent first (`list` is ordered by depth); returns old id → new id, the root included. */
async function copySubfolders(tx: Tx, source: Folder, root: Folder, list: Folder[]): Promise<Map<number, number>> {
  const newIds = new Map([[source.id, root.id]]);
  const newPaths = new Map([[root.id, root.path]]);
  const byDepth = new Map<number, Folder[]>();
  for (const f of list) {
    const level = byDepth.get(f.path.length);
    if (level) level.push(f);
    else byDepth.set(f.path.length, [f]);
  }
  for (const level of byDepth.values()) {
    for (let i = 0; i < level.length; i += 1000) {
      const chunk = level.slice(i, i + 1000);
      const inserted = await tx
        .insert(folders)
        .values(
          chunk.map((f) => {
            const parentId = newIds.get(f.parentId!)!;
            return { name: f.name, parentId, path: [...newPaths.get(parentId)!, parentId], ownerId: root.ownerId, space: root.space, createdAt: root.createdAt, modifiedAt: root.createdAt };
          }),
        )
        .returning({ id: folders.id, parentId: folders.parentId, name: folders.name, path: folders.path });
      // Sibling names are unique, so (new parent, name) finds the source of each copy.
      const created = new Map(inserted.map((r) => [`${r.parentId}/${nameKey(r.name)}`, r]));
      for (const f of chunk) {
        const copy = created.get(`${newIds.get(f.parentId!)}/${nameKey(f.name)}`)!;
        newIds.set(f.id, copy.id);
        newPaths.set(copy.id, copy.path);
      }
    }
  }
  return newIds;
}

/** Copies the latest version of every live file of the mapped folders, sharing blobs; returns how many. */
async function copyLatestVersions(tx: Tx, userId: number, pairs: [number, number][], date: Date): Promise<number> {
  if (pairs.length === 0) return 0;
  const now = sql`${date.toISOString()}::timestamptz`;
  const map = sql`unnest(${idArray(pairs.map((p) => p[0]))}, ${idArray(pairs.map((p) => p[1]))}) AS m(old_id, new_id)`;
  const newFolders = idArray(pairs.map((p) => p[1]));
  const inserted = rows<{ id: number }>(
    await tx.execute(sql`
      INSERT INTO files (folder_id, name, owner_id, created_at, modified_at)
      SELECT m.new_id, f.name, ${userId}, ${now}, ${now}
      FROM ${map} JOIN files f ON f.folder_id = m.old_id
      WHERE f.deleted_at IS NULL AND f.current_version_id IS NOT NULL
      RETURNING id`),
  );
  if (inserted.length === 0) return 0;
  await tx.execute(sql`
    INSERT INTO file_versions (file_id, number, blob_id, size, md5, mime, creator_id, meta, created_at, modified_at)
    SELECT nf.id, 1, v.blob_id, v.size, v.md5, v.mime, ${userId}, v.meta, ${now}, ${now}
    FROM ${map}
    JOIN files nf ON nf.folder_id = m.new_id AND nf.deleted_at IS NULL
    JOIN files f ON f.folder_id = m.old_id AND f.deleted_at IS NULL AND f.name_key = nf.name_key
    JOIN file_versions v ON v.id = f.current_version_id`);
  await tx.execute(sql`
    UPDATE files SET current_version_id = v.id FROM file_versions v
    WHERE v.file_id = files.id AND files.folder_id = ANY(${newFolders})`);
  await copyFolderDerivatives(tx, pairs);
  return inserted.length;
}
