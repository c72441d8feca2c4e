import "server-only";
import { isIP } from "node:net";
import { inArray, sql } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";
import { loginThrottles } from "@/db/schema";
import { AppError } from "../errors";

// Failures are counted per (account, address) pair, which slows an attack on one account
// without locking its owner out from their own address, and per address, which stops one
// address from trying many accounts. A lock on the account alone would let anyone lock anyone out,
// so it is kept for guesses that need a first secret or stand for no person (`perSubject`): a
// second factor (the guesser knew the password), a re-authentication (they hold a session), a
// link (its password). There, failures also count per subject from every address, with a lock
// that grows, so many addresses are no more guesses than one (issue 25, findings 5 and 6).
const RULES = {
  pair: { free: 5, firstBlockMs: 1000, maxBlockMs: 15 * 60_000, windowMs: 15 * 60_000 },
  ip: { free: 30, firstBlockMs: 1000, maxBlockMs: 15 * 60_000, windowMs: 15 * 60_000 },
  subject: { free: 20, firstBlockMs: 60_000, maxBlockMs: 24 * 3600_000, windowMs: 24 * 3600_000 },
} as const;
type RuleName = keyof typeof RULES;
/** Wrong answers on one subject, from any address, before its first lock. */
export const SUBJECT_FREE_ATTEMPTS = RULES.subject.free;

export type ThrottleScope = { namespace: string; subject: string; ip: string; perSubject?: boolean };

const keysOf = (s: ThrottleScope) => ({
  pair: `${s.namespace}:pair:${s.subject.toLowerCase()}|${s.ip}`,
  ip: `${s.namespace}:ip:${s.ip}`,
});

/** Every key a scope counts under, its address reduced to the unit one client holds (throttleAddress). */
function keysFor(scope: ThrottleScope): Partial<Record<RuleName, string>> {
  const s = { ...scope, ip: throttleAddress(scope.ip) };
  return { ...keysOf(s), ...(s.perSubject ? { subject: subjectKey(s.namespace, s.subject) } : {}) };
}

const subjectKey = (namespace: string, subject: string) => `${namespace}:subject:${subject.toLowerCase()}`;

/**
 * The address a throttle counts: an IPv4 address as it is, an IPv6 address as its /64, which one
 * client is routinely given whole (so its 2^64 addresses are one, not that many fresh allowances).
 * IPv4 written as IPv6 (::ffff:a.b.c.d) is the IPv4 address. Anything else (`unknown`) stays as is.
 */
export function throttleAddress(ip: string): string {
  const address = ip.trim().toLowerCase().replace(/%.*$/, "");
  if (isIP(address) !== 6) return address;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join(".");
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (with "::" and a dotted IPv4 tail expanded). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const parse = (part: string | undefined) => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  return tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** Throws 429 with Retry-After while the pair, the address or (perSubject) the subject is blocked. */
export async function assertNotThrottled(db: DbOrTx, scope: ThrottleScope): Promise<void> {
  const found = await db.select().from(loginThrottles).where(inArray(loginThrottles.key, Object.values(keysFor(scope))));
  const until = Math.max(0, ...found.map((r) => r.blockedUntil?.getTime() ?? 0));
  const wait = Math.ceil((until - Date.now()) / 1000);
  if (wait > 0) {
    throw new AppError("too_many_requests", `Too many failed attempts; try again in ${wait} seconds`, undefined, {
      "Retry-After": String(wait),
    });
  }
}

/**
 * Counts one failure under each key; past a key's free attempts, blocks it for a doubling delay.
 * `subjectLocked` is true for the one failure that locks the subject first in its window (a
 * caller mails the owner then, once per lock: a growing lock is one event, not one per attempt).
 */
export async function recordFailure(db: DbOrTx, scope: ThrottleScope): Promise<{ subjectLocked: boolean }> {
  let subjectLocked = false;
  for (const [kind, key] of Object.entries(keysFor(scope)) as [RuleName, string][]) {
    const rule = RULES[kind];
    const window = `${rule.windowMs} milliseconds`;
    await db.execute(sql`
      INSERT INTO login_throttles (key, failures, window_start, blocked_until) VALUES (${key}, 1, now(), NULL)
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN login_throttles.window_start < now() - ${window}::interval
                        AND (login_throttles.blocked_until IS NULL OR login_throttles.blocked_until < now())
                   THEN 1 ELSE login_throttles.failures + 1 END,
        window_start = CASE WHEN login_throttles.window_start < now() - ${window}::interval
                        AND (login_throttles.blocked_until IS NULL OR login_throttles.blocked_until < now())
                   THEN now() ELSE login_throttles.window_start END`);
    const blocked = await db.execute(sql`
      UPDATE login_throttles SET blocked_until = now() + least(
          ${rule.maxBlockMs}::bigint, (${rule.firstBlockMs} * power(2, least(failures - ${rule.free}, 30)))::bigint
        ) * interval '1 millisecond'
      WHERE key = ${key} AND failures >= ${rule.free}
      RETURNING failures`);
    if (kind === "subject" && rows<{ failures: number }>(blocked).some((r) => Number(r.failures) === rule.free)) subjectLocked = true;
  }
  return { subjectLocked };
}

/**
 * A success clears the pair's count (the address's count decays with its window). The subject's
 * count is kept: a right answer from its owner must not hand a guesser elsewhere a fresh allowance.
 */
export async function clearFailures(db: DbOrTx, scope: ThrottleScope): Promise<void> {
  await db.delete(loginThrottles).where(inArray(loginThrottles.key, [keysOf({ ...scope, ip: throttleAddress(scope.ip) }).pair]));
}

/** Lifts a subject's lock: its owner proved who they are another way (a new password). */
export async function clearSubjectFailures(db: DbOrTx, namespace: string, subject: string): Promise<void> {
  await db.delete(loginThrottles).where(inArray(loginThrottles.key, [subjectKey(namespace, subject)]));
}
