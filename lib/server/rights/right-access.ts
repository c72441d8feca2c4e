import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";
import { folders, groups, rights as rightsTable, users, type Folder, type RightRow, type User } from "@/db/schema";
import { AppError, forbidden, notFound } from "../errors";
import { getFolderOrThrow } from "../folders/get-folder";
import { resolveRightsMany } from "./resolve-many";
import { RIGHT_NAMES, type Rights } from "./rights";

type Caller = Pick<User, "id" | "role">;

/**
 * A right and its folder, for a caller who administers the folder's rights (the share right,
 * which owners and administrators hold). 404 when the right is unknown or its folder hidden.
 */
export async function getRightOrThrow(db: DbOrTx, user: Caller, rightId: number): Promise<{ right: RightRow; folder: Folder; rights: Rights }> {
  const [right] = await db.select().from(rightsTable).where(eq(rightsTable.id, rightId)).limit(1);
  if (!right) throw notFound("Right");
  const access = await getFolderOrThrow(db, user, right.folderId, "browse").catch((error: unknown) => {
    throw error instanceof AppError && error.code === "not_found" ? notFound("Right") : error;
  });
  if (!access.rights.share) throw forbidden("Managing the rights of this folder needs the share right");
  return { right, ...access };
}

/** A live user or a group, or 404. */
export async function assertTargetExists(db: DbOrTx, targetId: number) {
  const [person] = await db.select({ id: users.id }).from(users).where(and(eq(users.id, targetId), isNull(users.deletedAt))).limit(1);
  if (person) return;
  const [team] = await db.select({ id: groups.id }).from(groups).where(eq(groups.id, targetId)).limit(1);
  if (!team) throw notFound("User or group");
}

/** Nobody hands out a right they do not hold themselves (403). */
export function assertHolds(held: Rights, wanted: Partial<Rights>, where = "this folder") {
  const missing = RIGHT_NAMES.filter((name) => wanted[name] && !held[name]);
  if (missing.length) throw forbidden(`You cannot grant rights you do not hold on ${where}: ${missing.join(", ")}`);
}

/** Live subfolders of a folder. */
async function subfolderIds(db: DbOrTx, folderId: number): Promise<number[]> {
  const found = rows<{ id: number }>(await db.execute(sql`SELECT id FROM folders WHERE path @> ARRAY[${folderId}::int] AND deleted_at IS NULL`));
  return found.map((r) => Number(r.id));
}

/** Checks, for a recursive change, that the caller may manage rights with `flags` on each of `ids`. */
async function assertManagesAll(db: DbOrTx, user: Caller, ids: number[], flags: Partial<Rights>) {
  if (user.role === 3) return;
  for (const [id, held] of await resolveRightsMany(db, user, ids)) {
    if (!held.share) throw forbidden(`Managing the rights of subfolder ${id} needs the share right there`);
    assertHolds(held, flags, `subfolder ${id}`);
  }
}

/** `recursive`: gives the target the same right on every live subfolder, replacing theirs; returns how many. */
export async function setOnSubfolders(db: DbOrTx, user: Caller, folderId: number, targetId: number, flags: Rights): Promise<number> {
  const ids = await subfolderIds(db, folderId);
  if (ids.length === 0) return 0;
  await assertManagesAll(db, user, ids, flags);
  await db.execute(sql`
    INSERT INTO rights (folder_id, target_id, browse, read, download, write, edit, delete, share, created_by)
    SELECT id, ${targetId}, ${flags.browse}, ${flags.read}, ${flags.download}, ${flags.write}, ${flags.edit}, ${flags.delete}, ${flags.share}, ${user.id}
    FROM folders WHERE path @> ARRAY[${folderId}::int] AND deleted_at IS NULL
    ON CONFLICT (folder_id, target_id) DO UPDATE SET browse = EXCLUDED.browse, read = EXCLUDED.read, download = EXCLUDED.download,
      write = EXCLUDED.write, edit = EXCLUDED.edit, delete = EXCLUDED.delete, share = EXCLUDED.share`);
  return ids.length;
}

/** `recursive` delete: removes the target's rights on every subfolder (trashed ones included); returns how many. */
export async function deleteOnSubfolders(db: DbOrTx, user: Caller, folderId: number, targetId: number): Promise<number> {
  const below = sql`${rightsTable.folderId} IN (SELECT id FROM ${folders} WHERE path @> ARRAY[${folderId}::int])`;
  const found = await db.select({ folderId: rightsTable.folderId }).from(rightsTable).where(and(eq(rightsTable.targetId, targetId), below));
  if (found.length === 0) return 0;
  await assertManagesAll(db, user, found.map((r) => r.folderId), {});
  await db.delete(rightsTable).where(and(eq(rightsTable.targetId, targetId), below));
  return found.length;
}

export const flagsOf = (r: Rights): Rights => Object.fromEntries(RIGHT_NAMES.map((n) => [n, r[n]])) as Rights;
