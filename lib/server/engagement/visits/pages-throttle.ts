import "server-only";
import { sql } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";
import { throttleAddress } from "../../auth/throttle";
import { AppError } from "../../errors";

/** Batches of page times one client may send to one link per minute (a reader sends about one). */
export const PAGE_BATCHES_PER_MINUTE = 60;
const WINDOW_MS = 60_000;

/**
 * Counts one batch of `POST …/visits/(id)/pages` per (link, client address) in a fixed one-minute
 * window: one upsert on the throttle table's primary key, no scan. Past the allowance, a 429 with
 * Retry-After until the window ends; what a refused batch carried is not recorded.
 */
export async function countPagesBatch(db: DbOrTx, shareId: number, ip: string): Promise<void> {
  const key = `engagement.pages:${shareId}|${throttleAddress(ip)}`;
  const window = `${WINDOW_MS} milliseconds`;
  const [row] = rows<{ failures: number; wait_ms: number }>(
    await db.execute(sql`
      INSERT INTO login_throttles (key, failures, window_start, blocked_until) VALUES (${key}, 1, now(), NULL)
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN login_throttles.window_start <= now() - ${window}::interval THEN 1 ELSE login_throttles.failures + 1 END,
        window_start = CASE WHEN login_throttles.window_start <= now() - ${window}::interval THEN now() ELSE login_throttles.window_start END
      RETURNING failures, (extract(epoch FROM (window_start + ${window}::interval - now())) * 1000)::float8 AS wait_ms`),
  );
  if (Number(row.failures) > PAGE_BATCHES_PER_MINUTE) {
    const wait = Math.max(1, Math.ceil(Number(row.wait_ms) / 1000));
    throw new AppError("too_many_requests", `Too many page reports from this address; try again in ${wait} seconds`, undefined, { "Retry-After": String(wait) });
  }
}
