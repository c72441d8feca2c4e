import "server-only";
import { eq, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/**
 * An integer array literal (`ARRAY[1,2]::int[]`) for `= ANY(...)`: one SQL value whatever the
 * number of ids, so listings of huge trees never hit the driver's 65,535-parameter limit.
 * Only safe integers get here, so inlining them is not an injection risk.
 */
export function idArray(ids: Iterable<number>): SQL {
  const list = [...new Set(ids)];
  for (const id of list) if (!Number.isSafeInteger(id)) throw new Error(`Not an id: ${id}`);
  return sql.raw(`ARRAY[${list.join(",")}]::int[]`);
}

/** Calls `fn` on consecutive slices of `list` and concatenates the results, in order. */
export async function inChunks<T, R>(list: T[], size: number, fn: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < list.length; i += size) out.push(...(await fn(list.slice(i, i + size))));
  return out;
}

/** `column = id` for one id (so the planner can walk an index in order), `= ANY(array)` for more. */
export function idIn(column: AnyPgColumn, ids: number[]): SQL {
  return ids.length === 1 ? eq(column, ids[0]) : sql`${column} = ANY(${idArray(ids)})`;
}
