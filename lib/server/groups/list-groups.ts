import "server-only";
import { and, asc, count, ilike, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { groups } from "@/db/schema";
import type { listGroupsQuery } from "@/lib/contracts/groups";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { restrictToVisibleGroups } from "./group-access";
import { liveMemberCount, serializeGroup } from "./serialize-group";

type Query = z.output<typeof listGroupsQuery>;

/**
 * GET /groups, ordered by name. Administrators list every group; others list the groups they
 * belong to and, for managers, the groups they manage.
 */
export async function listGroups(ctx: AuthedCtx, query: Query) {
  const actor = ctx.actor.user;
  const where: SQL[] = [];
  if (actor.role !== 3) where.push(restrictToVisibleGroups(ctx.db, actor));
  if (query.keyword) where.push(ilike(groups.login, `%${query.keyword.replace(/[\\%_]/g, "\\$&")}%`));
  const condition = where.length ? and(...where) : undefined;

  const [page, [{ total }]] = await Promise.all([
    ctx.db
      .select({ group: groups, nbMembers: liveMemberCount(ctx.db) })
      .from(groups)
      .where(condition)
      .orderBy(asc(sql`lower(${groups.login})`), asc(groups.id))
      .offset(query.offset_start)
      .limit(query.nb_objects),
    ctx.db.select({ total: count() }).from(groups).where(condition),
  ]);
  return envelope(
    page.map((r) => serializeGroup(r.group, r.nbMembers)),
    query.offset_start,
    total,
  );
}
