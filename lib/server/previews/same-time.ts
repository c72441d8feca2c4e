import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/** A stored time equals a JavaScript one read from it: PostgreSQL keeps microseconds, Date milliseconds. */
export const sameTime = (column: AnyPgColumn, time: Date): SQL => sql`date_trunc('milliseconds', ${column}) = ${time.toISOString()}::timestamptz`;
