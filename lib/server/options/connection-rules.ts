import "server-only";
import { BlockList, isIP } from "node:net";
import { zonedClock } from "@/lib/contracts/time-zones";

/** The options that decide whether one principal may connect; the columns of connection_options. */
export type ConnectionOptions = {
  ips: string[] | null;
  days: number;
  hourStart: string | null;
  hourEnd: string | null;
  canNetsync: boolean;
  oauthBlocked: number;
};

export const DEFAULT_OPTIONS: ConnectionOptions = { ips: null, days: 255, hourStart: null, hourEnd: null, canNetsync: true, oauthBlocked: 0 };

export type RefusalReason = "ip_not_allowed" | "day_not_allowed" | "hour_not_allowed" | "web_not_allowed" | "application_not_allowed";

/** oauth_blocked bits (contract): 1 web, 2 mobile, 4 mail connector. */
export const OAUTH_WEB = 1;
/**
 * The bit that blocks each session kind: web sign-ins, and the tokens of OAuth2 applications of
 * each kind (`oauth:<kind>`, lib/server/oauth2). API tokens from POST /auth are never blocked.
 */
const BLOCKED_BY: Record<string, number> = { web: OAUTH_WEB, "oauth:web": OAUTH_WEB, "oauth:mobile": 2, "oauth:mail_connector": 4 };
const MINUTES_PER_DAY = 24 * 60;
const SUNDAY_AGAIN = 128;

/** Where and when a connection is tried; days and hours are read on the wall clock of `timeZone` (the platform's). */
export type ConnectionAttempt = { ip: string; now: Date; kind: string; timeZone: string };

/**
 * Why `options` refuse a connection from `ip` at `now`, or null when they allow it. Days and
 * hours are those of the platform's time zone (configuration `time_zone`, UTC by default: the
 * contract's GMT), daylight saving time included. An address that cannot be read ("unknown")
 * matches no list, so a whitelist fails closed.
 */
export function connectionRefusal(options: ConnectionOptions, at: ConnectionAttempt): RefusalReason | null {
  if (options.ips !== null && !ipAllowed(options.ips, at.ip)) return "ip_not_allowed";
  const clock = zonedClock(at.now, at.timeZone);
  if (!dayAllowed(options.days, clock.day)) return "day_not_allowed";
  if (!minuteAllowed(options, clock.minute)) return "hour_not_allowed";
  if (at.kind === "web" && (options.oauthBlocked & OAUTH_WEB) !== 0) return "web_not_allowed";
  if ((options.oauthBlocked & (BLOCKED_BY[at.kind] ?? 0)) !== 0) return "application_not_allowed";
  return null;
}

export const REFUSAL_MESSAGES: Record<RefusalReason, string> = {
  ip_not_allowed: "Connections from this address are not allowed for this account",
  day_not_allowed: "Connections are not allowed on this day for this account",
  hour_not_allowed: "Connections are not allowed at this hour (platform time zone) for this account",
  web_not_allowed: "Web sessions are blocked for this account",
  application_not_allowed: "Applications of this kind are blocked for this account",
};

// api.md: the mask has Sunday twice (1 and 128); either bit allows Sunday.
function dayAllowed(mask: number, day: number): boolean {
  return (mask & (1 << day)) !== 0 || (day === 0 && (mask & SUNDAY_AGAIN) !== 0);
}

/** hour_start null = from midnight, hour_end null = until midnight; start after end wraps midnight. */
function window(options: Pick<ConnectionOptions, "hourStart" | "hourEnd">): { start: number; end: number } | null {
  if (options.hourStart === null && options.hourEnd === null) return null;
  const start = options.hourStart === null ? 0 : toMinutes(options.hourStart);
  const end = options.hourEnd === null ? MINUTES_PER_DAY : toMinutes(options.hourEnd);
  return start === end ? null : { start, end };
}

function minuteAllowed(options: ConnectionOptions, minute: number): boolean {
  const w = window(options);
  if (!w) return true;
  return w.start < w.end ? minute >= w.start && minute < w.end : minute >= w.start || minute < w.end;
}

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const toHour = (minutes: number) => `${String(Math.floor(minutes / 60) % 24).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** A whitelist entry: an IPv4 or IPv6 address, or a CIDR range of either. Null when malformed. */
export function parseIpEntry(entry: string): { address: string; prefix: number; type: "ipv4" | "ipv6" } | null {
  const [address, prefixText, extra] = entry.trim().split("/");
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return null;
  const max = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return null;
  return { address, prefix, type: version === 4 ? "ipv4" : "ipv6" };
}

// Whitelists are few and stable; compiling each once keeps the per-request check to a lookup.
const compiled = new Map<string, BlockList>();

function ipAllowed(ips: string[], ip: string): boolean {
  const version = isIP(ip);
  if (version === 0 || ips.length === 0) return false;
  const key = ips.join(",");
  let list = compiled.get(key);
  if (!list) {
    list = new BlockList();
    for (const entry of ips) {
      const parsed = parseIpEntry(entry);
      if (parsed) list.addSubnet(parsed.address, parsed.prefix, parsed.type);
    }
    if (compiled.size >= 1000) compiled.clear();
    compiled.set(key, list);
  }
  return list.check(ip, version === 4 ? "ipv4" : "ipv6");
}

/**
 * The options a user without a row of their own inherits from the groups that have one: the most
 * permissive union, so that belonging to one more group never takes a permission away. Addresses
 * are united (no filtering if any group has none), days OR-ed, hours widened to the smallest single
 * window covering every group's window, netsync allowed if any group allows it, an application
 * blocked only if every group blocks it. Groups without a row express no restriction of their own
 * and are left out; with no group row at all, the defaults apply.
 */
export function combineGroupOptions(rows: ConnectionOptions[]): ConnectionOptions {
  if (rows.length === 0) return DEFAULT_OPTIONS;
  const ips = rows.some((r) => r.ips === null) ? null : [...new Set(rows.flatMap((r) => r.ips ?? []))];
  const hours = widestWindow(rows);
  return {
    ips,
    days: rows.reduce((mask, r) => mask | r.days, 0),
    hourStart: hours?.hourStart ?? null,
    hourEnd: hours?.hourEnd ?? null,
    canNetsync: rows.some((r) => r.canNetsync),
    oauthBlocked: rows.reduce((mask, r) => mask & r.oauthBlocked, 7),
  };
}

/** The complement of the longest stretch of the day no window covers; null when every minute is covered. */
function widestWindow(rows: ConnectionOptions[]): { hourStart: string; hourEnd: string } | null {
  const covered = new Array<boolean>(MINUTES_PER_DAY).fill(false);
  for (const row of rows) {
    const w = window(row);
    if (!w) return null;
    const length = (w.end - w.start + MINUTES_PER_DAY) % MINUTES_PER_DAY || MINUTES_PER_DAY;
    for (let i = 0; i < length; i++) covered[(w.start + i) % MINUTES_PER_DAY] = true;
  }
  let best = { start: -1, length: 0 };
  for (let m = 0; m < MINUTES_PER_DAY; m++) {
    if (covered[m] || !covered[(m + MINUTES_PER_DAY - 1) % MINUTES_PER_DAY]) continue;
    let length = 0;
    while (length < MINUTES_PER_DAY && !covered[(m + length) % MINUTES_PER_DAY]) length++;
    if (length > best.length) best = { start: m, length };
  }
  if (best.start < 0) return null;
  return { hourStart: toHour((best.start + best.length) % MINUTES_PER_DAY), hourEnd: toHour(best.start) };
}

/** A row as JSON (the inherited rows come back from json_agg with the column names). */
export function optionsFromJson(row: Record<string, unknown>): ConnectionOptions {
  return {
    ips: (row.ips as string[] | null) ?? null,
    days: Number(row.days),
    hourStart: (row.hour_start as string | null) ?? null,
    hourEnd: (row.hour_end as string | null) ?? null,
    canNetsync: Boolean(row.can_netsync),
    oauthBlocked: Number(row.oauth_blocked),
  };
}
