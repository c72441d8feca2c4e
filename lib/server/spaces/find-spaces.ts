import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { folders, rights as rightsTable, type Folder, type User } from "@/db/schema";
import { resolveRightsMany } from "../rights/resolve-many";
import type { Rights } from "../rights/rights";
import { targetIdsOf } from "../rights/targets";

export type SpaceEntry = { folder: Folder; rights: Rights };
type Caller = Pick<User, "id" | "role" | "privateRootId">;

const byName = (a: SpaceEntry, b: SpaceEntry) => a.folder.name.localeCompare(b.folder.name, undefined, { sensitivity: "base" }) || a.folder.id - b.folder.id;

/** The caller's private space root (externals have none). */
export async function findPrivateRoot(db: DbOrTx, user: Caller): Promise<SpaceEntry | null> {
  if (!user.privateRootId) return null;
  const [folder] = await db.select().from(folders).where(and(eq(folders.id, user.privateRootId), isNull(folders.deletedAt)));
  if (!folder) return null;
  const rights = (await resolveRightsMany(db, user, [folder.id])).get(folder.id)!;
  return rights.browse ? { folder, rights } : null;
}

/** The company space: top-level company folders (created by administrators) the caller may browse. */
export async function findCompanyRoots(db: DbOrTx, user: Caller): Promise<SpaceEntry[]> {
  const tops = await db
    .select()
    .from(folders)
    .where(and(isNull(folders.parentId), eq(folders.space, "company"), isNull(folders.deletedAt)));
  const rights = await resolveRightsMany(db, user, tops.map((f) => f.id));
  return tops.filter((f) => rights.get(f.id)!.browse).map((f) => ({ folder: f, rights: rights.get(f.id)! })).sort(byName);
}

/**
 * The shared space: folders that others gave the caller (or one of their groups) a right on, and
 * that the caller may browse, keeping only the top-most ones (those whose parent the caller may
 * not browse). The caller's own folders and company top folders (listed in the company space) are
 * left out. Whether a folder counts as shared ignores the administrator role, so an administrator
 * sees what was shared with them, not the whole platform; their listed rights stay complete.
 */
export async function findSharedRoots(db: DbOrTx, user: Caller): Promise<SpaceEntry[]> {
  const privateRoot = user.privateRootId;
  const candidates = await db
    .selectDistinct({ folder: folders })
    .from(rightsTable)
    .innerJoin(folders, eq(folders.id, rightsTable.folderId))
    .where(
      and(
        sql`${rightsTable.targetId} IN ${targetIdsOf(user.id)}`,
        isNull(folders.deletedAt),
        sql`${folders.ownerId} <> ${user.id}`,
        sql`NOT (${folders.parentId} IS NULL AND ${folders.space} = 'company')`,
        privateRoot ? sql`NOT (${folders.id} = ${privateRoot} OR ${folders.path} @> ARRAY[${privateRoot}::int])` : undefined,
      ),
    );
  if (candidates.length === 0) return [];
  const asMember = { id: user.id, role: user.role === 3 ? 2 : user.role };
  const seen = await resolveRightsMany(db, asMember, candidates.map((c) => c.folder.id));
  const shared = candidates.map((c) => c.folder).filter((f) => seen.get(f.id)!.browse);
  const parentIds = shared.map((f) => f.parentId).filter((id): id is number => id !== null);
  const parents = await resolveRightsMany(db, asMember, parentIds);
  const tops = shared.filter((f) => f.parentId === null || !parents.get(f.parentId)!.browse);
  const actual = user.role === 3 ? await resolveRightsMany(db, user, tops.map((f) => f.id)) : seen;
  return tops.map((f) => ({ folder: f, rights: actual.get(f.id)! })).sort(byName);
}

/** Every root the caller lists (GET /folders): private space, company folders, then shared folders. */
export async function findAllRoots(db: DbOrTx, user: Caller): Promise<{ type: "private" | "company" | "shared"; entry: SpaceEntry }[]> {
  const [own, company, shared] = await Promise.all([findPrivateRoot(db, user), findCompanyRoots(db, user), findSharedRoots(db, user)]);
  return [
    ...(own ? [{ type: "private" as const, entry: own }] : []),
    ...company.map((entry) => ({ type: "company" as const, entry })),
    ...shared.map((entry) => ({ type: "shared" as const, entry })),
  ];
}
