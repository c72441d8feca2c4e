import "server-only";
import { sql } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";
import type { Folder, User } from "@/db/schema";
import { forbidden } from "../errors";
import { resolveFolderRights } from "./resolve-rights";
import { resolveRightsMany } from "./resolve-many";
import type { RightName, Rights } from "./rights";

type Who = Pick<User, "id" | "role">;

/**
 * Contract (PUT /file): a move needs read, download, edit and delete in the source. Whatever takes
 * an object out of its folder to another place (a move, an archive, a restore elsewhere) needs
 * them: the delete right alone only sends it to its owner's trash (issue 25, finding 2).
 */
export const TAKE_OUT_NEEDS: RightName[] = ["read", "download", "edit", "delete"];

/** 403 unless `rights` (the caller's, in the file's folder) let them take a file out of it. */
export function assertMayTakeFileOut(rights: Rights, what: string) {
  const lacking = TAKE_OUT_NEEDS.find((r) => !rights[r]);
  if (lacking) throw forbidden(`${what} needs the ${lacking} right in its folder`);
}

/**
 * 403 unless the caller may take `folder` out of its parent: every right of TAKE_OUT_NEEDS in the
 * parent (owning the folder or being an administrator is enough), and the read and download
 * rights on everything below it, since whoever holds the folder afterwards holds its bytes.
 * `trashId`: for a trashed folder, its subtree as the trash item holds it.
 */
export async function assertMayTakeFolderOut(db: DbOrTx, user: Who, folder: Folder, what: string, options: { trashId?: number } = {}) {
  if (user.role === 3) return;
  if (folder.ownerId !== user.id) {
    const parent = folder.parentId ? await resolveFolderRights(db, user, folder.parentId) : null;
    const lacking = parent ? TAKE_OUT_NEEDS.find((r) => !parent[r]) : "delete";
    if (lacking) throw forbidden(`${what} needs the ${lacking} right in its parent folder`);
  }
  await assertContentDownloadable(db, user, folder, what, options);
}

/**
 * 403 unless the caller may read and download everything of `folder`'s subtree: its own rights,
 * and those of each folder below that carries a right of one of the caller's targets (the
 * others inherit one of those, so the check costs two queries whatever the tree's size).
 * `trashId`: a trashed subtree is checked as it was trashed (its folders carry that item).
 */
export async function assertContentDownloadable(db: DbOrTx, user: Who, folder: Pick<Folder, "id">, what: string, options: { trashId?: number } = {}) {
  if (user.role === 3) return;
  const below = options.trashId === undefined ? sql`f.deleted_at IS NULL` : sql`f.trash_id = ${options.trashId}`;
  const restricted = rows<{ id: number }>(
    await db.execute(sql`
      SELECT DISTINCT r.folder_id AS id FROM rights r JOIN folders f ON f.id = r.folder_id
      WHERE f.path @> ARRAY[${folder.id}::int] AND ${below}
        AND r.target_id IN (SELECT ${user.id}::int UNION ALL SELECT group_id FROM group_members WHERE user_id = ${user.id})`),
  ).map((r) => Number(r.id));
  const rights = await resolveRightsMany(db, user, [folder.id, ...restricted]);
  for (const r of rights.values()) {
    if (!r.read || !r.download) throw forbidden(`${what} needs the read and download rights on everything it holds`);
  }
}
