import "server-only";
import { inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { loginThrottles } from "@/db/schema";
import { AppError } from "../errors";
import { loginKey } from "./login-name";

// Failures are counted per (account, address) pair, which slows an attack on one account
// without locking its owner out from their own address, and per address, which stops one
// address from trying many accounts. A lock on the account alone would let anyone lock anyone out.
const WINDOW_MS = 15 * 60_000;
const RULES = {
  pair: { free: 5, maxBlockMs: 15 * 60_000 },
  ip: { free: 30, maxBlockMs: 15 * 60_000 },
} as const;

export type ThrottleScope = { namespace: string; subject: string; ip: string };

// The subject is counted in its normalised form: a login typed with spaces, in capitals or in
// another Unicode form is the same login (login-name.ts), never a fresh allowance of guesses.
const keysOf = (s: ThrottleScope) => ({
  pair: `${s.namespace}:pair:${loginKey(s.subject)}|${s.ip}`,
  ip: `${s.namespace}:ip:${s.ip}`,
});

/** Throws 429 with Retry-After while the pair or the address is blocked. */
export async function assertNotThrottled(db: DbOrTx, scope: ThrottleScope): Promise<void> {
  const keys = keysOf(scope);
  const found = await db.select().from(loginThrottles).where(inArray(loginThrottles.key, [keys.pair, keys.ip]));
  const until = Math.max(0, ...found.map((r) => r.blockedUntil?.getTime() ?? 0));
  const wait = Math.ceil((until - Date.now()) / 1000);
  if (wait > 0) {
    throw new AppError("too_many_requests", `Too many failed attempts; try again in ${wait} seconds`, undefined, {
      "Retry-After": String(wait),
    });
  }
}

/** Counts one failure; past the free attempts, blocks for a doubling delay. */
export async function recordFailure(db: DbOrTx, scope: ThrottleScope): Promise<void> {
  const keys = keysOf(scope);
  for (const [kind, key] of Object.entries(keys) as [keyof typeof RULES, string][]) {
    const rule = RULES[kind];
    await db.execute(sql`
      INSERT INTO login_throttles (key, failures, window_start, blocked_until) VALUES (${key}, 1, now(), NULL)
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN login_throttles.window_start < now() - ${`${WINDOW_MS} milliseconds`}::interval
                        AND (login_throttles.blocked_until IS NULL OR login_throttles.blocked_until < now())
                   THEN 1 ELSE login_throttles.failures + 1 END,
        window_start = CASE WHEN login_throttles.window_start < now() - ${`${WINDOW_MS} milliseconds`}::interval
                        AND (login_throttles.blocked_until IS NULL OR login_throttles.blocked_until < now())
                   THEN now() ELSE login_throttles.window_start END`);
    await db.execute(sql`
      UPDATE login_throttles SET blocked_until = now() + least(
          ${rule.maxBlockMs}::bigint, (1000 * power(2, least(failures - ${rule.free}, 20)))::bigint
        ) * interval '1 millisecond'
      WHERE key = ${key} AND failures >= ${rule.free}`);
  }
}

/** A success clears the pair's count (the address's count decays with its window). */
export async function clearFailures(db: DbOrTx, scope: ThrottleScope): Promise<void> {
  await db.delete(loginThrottles).where(inArray(loginThrottles.key, [keysOf(scope).pair]));
}
