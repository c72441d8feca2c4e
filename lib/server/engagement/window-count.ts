import "server-only";
import { sql } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";
import { AppError } from "../errors";

/**
 * Counts one use under `key` in a fixed window: one upsert on the throttle table's primary key,
 * no scan. Returns the uses counted in the current window and the time left in it.
 */
export async function countInWindow(db: DbOrTx, key: string, windowMs: number): Promise<{ count: number; waitMs: number }> {
  const window = `${windowMs} milliseconds`;
  const [row] = rows<{ failures: number; wait_ms: number }>(
    await db.execute(sql`
      INSERT INTO login_throttles (key, failures, window_start, blocked_until) VALUES (${key}, 1, now(), NULL)
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN login_throttles.window_start <= now() - ${window}::interval THEN 1 ELSE login_throttles.failures + 1 END,
        window_start = CASE WHEN login_throttles.window_start <= now() - ${window}::interval THEN now() ELSE login_throttles.window_start END
      RETURNING failures, (extract(epoch FROM (window_start + ${window}::interval - now())) * 1000)::float8 AS wait_ms`),
  );
  return { count: Number(row.failures), waitMs: Number(row.wait_ms) };
}

/** A 429 with Retry-After until the window ends, once `limit` uses are past; `what` names them ("page reports"). */
export async function refuseOverLimit(db: DbOrTx, key: string, limit: number, windowMs: number, what: string): Promise<void> {
  const { count, waitMs } = await countInWindow(db, key, windowMs);
  if (count <= limit) return;
  const wait = Math.max(1, Math.ceil(waitMs / 1000));
  throw new AppError("too_many_requests", `Too many ${what} from this address; try again in ${wait} seconds`, undefined, { "Retry-After": String(wait) });
}
