import "server-only";
import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/db";
import { connectionOptions, users, type ConnectionOptionsRow } from "@/db/schema";
import { combineGroupOptions, optionsFromJson, type ConnectionOptions } from "./connection-rules";

/** A user's own row, for queries that start from `users` (left join it on ownOptions.targetId = users.id). */
export const ownOptions = alias(connectionOptions, "own_options");

/**
 * For a query over `users` left-joined to ownOptions: the rows of the user's groups as JSON, read
 * only when the user has no row of their own (CASE skips the subquery otherwise). Folding this
 * into the caller's query is what keeps the per-request check free of a second round trip.
 */
export const inheritedOptionsColumn = () =>
  sql<unknown>`CASE WHEN ${ownOptions.targetId} IS NULL THEN (
    SELECT json_agg(json_build_object('ips', o.ips, 'days', o.days, 'hour_start', o.hour_start, 'hour_end', o.hour_end, 'can_netsync', o.can_netsync, 'oauth_blocked', o.oauth_blocked) ORDER BY o.target_id)
    FROM connection_options o
    WHERE EXISTS (SELECT 1 FROM group_members m WHERE m.group_id = o.target_id AND m.user_id = ${users.id})
  ) END`;

export type EffectiveOptions = { options: ConnectionOptions; inherited: boolean };

/** What the two columns above mean: the user's own row, or the union of their groups' rows. */
export function resolveOptions(own: ConnectionOptionsRow | null, inheritedRows: unknown): EffectiveOptions {
  if (own) return { options: pickOptions(own), inherited: false };
  // postgres.js parses json; a driver that hands back text is parsed here.
  const parsed = typeof inheritedRows === "string" ? JSON.parse(inheritedRows) : inheritedRows;
  const rows = Array.isArray(parsed) ? parsed.map((r) => optionsFromJson(r as Record<string, unknown>)) : [];
  return { options: combineGroupOptions(rows), inherited: true };
}

export const pickOptions = (row: ConnectionOptionsRow): ConnectionOptions => ({
  ips: row.ips,
  days: row.days,
  hourStart: row.hourStart,
  hourEnd: row.hourEnd,
  canNetsync: row.canNetsync,
  oauthBlocked: row.oauthBlocked,
});

/** The options that apply to one user now. */
export async function findUserOptions(db: DbOrTx, userId: number): Promise<EffectiveOptions> {
  const [row] = await db
    .select({ own: ownOptions, inherited: inheritedOptionsColumn() })
    .from(users)
    .leftJoin(ownOptions, eq(ownOptions.targetId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  return row ? resolveOptions(row.own, row.inherited) : { options: combineGroupOptions([]), inherited: true };
}

/** Every active administrator with the options that apply to them (for the lock-out guard). */
export async function findActiveAdminOptions(db: DbOrTx): Promise<{ id: number; options: ConnectionOptions }[]> {
  const found = await db
    .select({ id: users.id, own: ownOptions, inherited: inheritedOptionsColumn() })
    .from(users)
    .leftJoin(ownOptions, eq(ownOptions.targetId, users.id))
    .where(and(eq(users.role, 3), eq(users.active, true), isNull(users.deletedAt), or(isNull(users.expire), gt(users.expire, sql`now()`))));
  return found.map((r) => ({ id: r.id, options: resolveOptions(r.own, r.inherited).options }));
}
