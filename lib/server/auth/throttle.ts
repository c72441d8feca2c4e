import "server-only";
import { isIP } from "node:net";
import { inArray, sql, type SQL } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";
import { loginThrottles } from "@/db/schema";
import { AppError } from "../errors";
import { loginKey } from "./login-name";

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

// The subject is counted in its normalised form: a login typed with spaces, in capitals or in
// another Unicode form is the same login (login-name.ts), never a fresh allowance of guesses.
const keysOf = (s: ThrottleScope) => ({
  pair: `${s.namespace}:pair:${loginKey(s.subject)}|${s.ip}`,
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
  if (wait > 0) throw tooMany(wait);
}

const tooMany = (wait: number) => new AppError("too_many_requests", `Too many failed attempts; try again in ${wait} seconds`, undefined, { "Retry-After": String(wait) });

/** Counts one failure under the pair and the address; past a key's free attempts, blocks it for a doubling delay. */
export async function recordFailure(db: DbOrTx, scope: ThrottleScope): Promise<void> {
  // A subject counts its attempts as they start (guessUnderThrottle), not here.
  for (const [kind, key] of Object.entries(keysFor({ ...scope, perSubject: false })) as [RuleName, string][]) {
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
    await db.execute(sql`
      UPDATE login_throttles SET blocked_until = now() + ${blockDelay(rule, sql`failures`)}
      WHERE key = ${key} AND failures >= ${rule.free}`);
  }
}

type Rule = (typeof RULES)[RuleName];
/** The doubling delay past a rule's free attempts, as an interval. */
const blockDelay = (rule: Rule, failures: SQL) =>
  sql`least(${rule.maxBlockMs}::bigint, (${rule.firstBlockMs} * power(2, least(${failures} - ${rule.free}, 30)))::bigint) * interval '1 millisecond'`;

/**
 * Runs one guess under the throttle of `scope`: a 429 while a key is blocked; a wrong guess counts
 * under the pair and the address. A subject (perSubject) counts its attempts before they are
 * tried, in one statement that refuses while the subject is locked and locks it at its last free
 * attempt, so guesses sent at once cannot all slip through an open lock; a right guess gives its
 * attempt back (and lifts the lock it may have started). `subjectLocked` is true for the wrong
 * guess that locked the subject first in its window: the caller tells the owner, once per lock
 * (a lock that grows is one event, not one per attempt).
 */
export async function guessUnderThrottle(db: DbOrTx, scope: ThrottleScope, guess: () => Promise<boolean>): Promise<{ right: boolean; subjectLocked: boolean }> {
  await assertNotThrottled(db, scope);
  const attempt = scope.perSubject ? await claimSubjectAttempt(db, scope) : null;
  let right: boolean;
  try {
    right = await guess();
  } catch (error) {
    // Not an answer (a missing field, a failure): the attempt is given back.
    if (attempt !== null) await giveBackSubjectAttempt(db, scope);
    throw error;
  }
  if (right) {
    if (attempt !== null) await giveBackSubjectAttempt(db, scope);
    await clearFailures(db, scope);
    return { right, subjectLocked: false };
  }
  await recordFailure(db, scope);
  return { right, subjectLocked: attempt === RULES.subject.free };
}

/** Counts an attempt on the subject now, or 429 when it is locked; the attempt's number in its window. */
async function claimSubjectAttempt(db: DbOrTx, scope: ThrottleScope): Promise<number> {
  const rule = RULES.subject;
  const key = subjectKey(scope.namespace, scope.subject);
  const window = `${rule.windowMs} milliseconds`;
  const next = sql`CASE WHEN login_throttles.window_start < now() - ${window}::interval THEN 1 ELSE login_throttles.failures + 1 END`;
  // Only an unlocked row is updated; a locked one returns nothing (ON CONFLICT re-reads the row
  // under its lock, so concurrent claims queue here and see each other's counts).
  const claimed = rows<{ failures: number }>(
    await db.execute(sql`
      INSERT INTO login_throttles (key, failures, window_start, blocked_until) VALUES (${key}, 1, now(), NULL)
      ON CONFLICT (key) DO UPDATE SET
        failures = ${next},
        window_start = CASE WHEN login_throttles.window_start < now() - ${window}::interval THEN now() ELSE login_throttles.window_start END,
        blocked_until = CASE WHEN ${next} >= ${rule.free} THEN now() + ${blockDelay(rule, next)} ELSE NULL END
      WHERE login_throttles.blocked_until IS NULL OR login_throttles.blocked_until <= now()
      RETURNING failures`),
  );
  if (claimed.length === 0) await assertNotThrottled(db, { ...scope, perSubject: true });
  // Locked and unlocked between the two statements: refuse this once rather than count it twice.
  if (claimed.length === 0) throw tooMany(1);
  return Number(claimed[0].failures);
}

async function giveBackSubjectAttempt(db: DbOrTx, scope: ThrottleScope): Promise<void> {
  await db.execute(sql`
    UPDATE login_throttles SET failures = greatest(failures - 1, 0), blocked_until = NULL
    WHERE key = ${subjectKey(scope.namespace, scope.subject)}`);
}

/** A success clears the pair's count (the address's count decays with its window; a subject's, guessUnderThrottle). */
export async function clearFailures(db: DbOrTx, scope: ThrottleScope): Promise<void> {
  await db.delete(loginThrottles).where(inArray(loginThrottles.key, [keysOf({ ...scope, ip: throttleAddress(scope.ip) }).pair]));
}

/** Lifts a subject's lock: its owner proved who they are another way (a new password). */
export async function clearSubjectFailures(db: DbOrTx, namespace: string, subject: string): Promise<void> {
  await db.delete(loginThrottles).where(inArray(loginThrottles.key, [subjectKey(namespace, subject)]));
}
