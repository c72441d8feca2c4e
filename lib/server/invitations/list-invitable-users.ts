import "server-only";
import { and, asc, count, eq, inArray, isNull, ne, notExists, notInArray, sql, type SQL } from "drizzle-orm";
import { folders, rights, users } from "@/db/schema";
import type { InvitableUser, InvitableUsersQuery } from "@/lib/contracts/invitations";
import { displayName } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { getFolderOrThrow } from "../folders/get-folder";
import { envelope } from "../present/envelope";
import { matchesKeyword } from "../users/list-users";

/**
 * GET /invite/users/(folderId): live accounts whose login, name or address contains `search`,
 * that a holder of the share right on the folder could give a right to. Left out, as they
 * already have access that a new right would not change: administrators, the owners of the
 * folder's tree, and users with a right of their own on this very folder (access inherited from
 * a parent or a group is not, since a right here may still give them more).
 */
export async function listInvitableUsers(ctx: AuthedCtx, folderId: number, query: InvitableUsersQuery) {
  const { folder } = await getFolderOrThrow(ctx.db, ctx.actor.user, folderId, "share");
  const ownerIds = ctx.db.select({ id: folders.ownerId }).from(folders).where(inArray(folders.id, [...folder.path, folder.id]));
  const where: SQL = and(
    isNull(users.deletedAt),
    ne(users.role, 3),
    notInArray(users.id, ownerIds),
    notExists(ctx.db.select({ one: sql`1` }).from(rights).where(and(eq(rights.folderId, folder.id), eq(rights.targetId, users.id)))),
    matchesKeyword(query.search),
  )!;
  const [page, [{ total }]] = await Promise.all([
    ctx.db
      .select({ id: users.id, login: users.login, firstname: users.firstname, lastname: users.lastname, email: users.email })
      .from(users)
      .where(where)
      .orderBy(asc(sql`lower(${users.login})`), asc(users.id))
      .offset(query.offset_start)
      .limit(query.nb_objects),
    ctx.db.select({ total: count() }).from(users).where(where),
  ]);
  const objects: InvitableUser[] = page.map((u) => ({
    id: String(u.id),
    name: displayName(u),
    emails: u.email.split(",").map((e) => e.trim()).filter(Boolean),
  }));
  return envelope(objects, query.offset_start, total);
}
