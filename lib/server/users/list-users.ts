import "server-only";
import { and, asc, count, eq, exists, ilike, isNull, or, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { groupManagers, groupMembers, groups, userUsage, users } from "@/db/schema";
import type { listUsersQuery, UserSort } from "@/lib/contracts/users";
import type { AuthedCtx } from "../context";
import { forbidden, notFound } from "../errors";
import { envelope } from "../present/envelope";
import { groupIdsManagedBy } from "./managed-users";
import { loadUserRelations, serializeUser } from "./serialize-user";

type Query = z.output<typeof listUsersQuery>;

const USED = sql<number>`coalesce(${userUsage.bytes}, 0)`.mapWith(Number);

/** The sort keys of GET /users' `sort`; null values sort last in both orders. */
const SORT_KEYS: Record<UserSort, SQL> = {
  login: sql`lower(${users.login})`,
  name: sql`lower(coalesce(nullif(trim(${users.firstname} || ' ' || ${users.lastname}), ''), ${users.login}))`,
  role: sql`${users.role}`,
  used: sql`${USED}`,
  quota: sql`${users.quota}`,
  expire: sql`${users.expire}`,
  last_login: sql`${users.lastLogin}`,
};

/**
 * GET /users, ordered by login unless `sort` says otherwise (then by login among equals), so a
 * paged list sorts as a whole. Administrators list everyone; managers list the members of the
 * groups they manage; other roles are refused.
 */
export async function listUsers(ctx: AuthedCtx, query: Query) {
  const actor = ctx.actor.user;
  const where: SQL[] = [isNull(users.deletedAt)];
  let managed: number[] | null = null;

  if (actor.role === 4) {
    managed = await groupIdsManagedBy(ctx.db, actor.id);
    if (managed.length === 0) throw forbidden("You manage no group");
    where.push(
      exists(
        ctx.db
          .select({ one: sql`1` })
          .from(groupMembers)
          .innerJoin(groupManagers, eq(groupManagers.groupId, groupMembers.groupId))
          .where(and(eq(groupMembers.userId, users.id), eq(groupManagers.userId, actor.id))),
      ),
    );
  } else if (actor.role !== 3) {
    throw forbidden("Only administrators and managers list users");
  }

  if (query.member_of) {
    const [group] = await ctx.db.select({ id: groups.id }).from(groups).where(sql`lower(${groups.login}) = lower(${query.member_of})`).limit(1);
    // A manager learns nothing about groups they do not manage, not even whether they exist.
    if (managed && !(group && managed.includes(group.id))) throw forbidden("You may only list the members of the groups you manage");
    if (!group) throw notFound("Group");
    where.push(exists(ctx.db.select({ one: sql`1` }).from(groupMembers).where(and(eq(groupMembers.userId, users.id), eq(groupMembers.groupId, group.id)))));
  }

  if (query.keyword) where.push(matchesKeyword(query.keyword));

  const condition = and(...where);
  const key = SORT_KEYS[query.sort];
  const direction = query.order === "desc" ? sql`DESC NULLS LAST` : sql`ASC NULLS LAST`;
  const [page, [{ total }]] = await Promise.all([
    ctx.db
      .select({ user: users, used: USED })
      .from(users)
      .leftJoin(userUsage, eq(userUsage.userId, users.id))
      .where(condition)
      .orderBy(sql`${key} ${direction}`, asc(sql`lower(${users.login})`), asc(users.id))
      .offset(query.offset_start)
      .limit(query.nb_objects),
    ctx.db.select({ total: count() }).from(users).where(condition),
  ]);
  const relations = await loadUserRelations(ctx.db, page.map((r) => r.user.id));
  return envelope(
    page.map(({ user, used }) => ({ ...serializeUser(user, relations.get(user.id)!), ...(query.usage ? { used } : {}) })),
    query.offset_start,
    total,
  );
}

/** Users whose login, first name, last name, full name or address contains `keyword` (any case). */
export function matchesKeyword(keyword: string): SQL {
  const pattern = `%${keyword.replace(/[\\%_]/g, "\\$&")}%`;
  return or(
    ilike(users.login, pattern),
    ilike(users.firstname, pattern),
    ilike(users.lastname, pattern),
    ilike(users.email, pattern),
    ilike(sql`${users.firstname} || ' ' || ${users.lastname}`, pattern),
  )!;
}
