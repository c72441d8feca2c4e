import "server-only";
import { sql, type SQL } from "drizzle-orm";

/** The ids rights may name for a user: the user and each group they belong to (a subquery). */
export function targetIdsOf(userId: number): SQL {
  return sql`(SELECT ${userId}::int UNION ALL SELECT group_id FROM group_members WHERE user_id = ${userId})`;
}
