import "server-only";
import { sql } from "drizzle-orm";
import { getDb, rows, type Db } from "@/db";
import { collectUploadsEveryMs } from "../uploads/collect-uploads";
import { enqueueJob } from "./enqueue";
import { handlerFor } from "./registry";

const HOUR = 3_600_000;

/**
 * Jobs that run on a period, whatever else enqueues them. Kinds without a handler are skipped.
 * Abandoned uploads are looked for every 15 minutes (faster for short expiries): deposits expire within the hour.
 */
export const PERIODIC_JOBS: Array<{ kind: string; everyMs: () => number }> = [
  { kind: "blobs.collect", everyMs: () => HOUR },
  { kind: "uploads.collect", everyMs: collectUploadsEveryMs },
  { kind: "trash.purge", everyMs: () => 24 * HOUR },
  // The dashboard's daily figures: today's row is rewritten each hour (lib/server/stats/sample-stats.ts).
  { kind: "stats.sample", everyMs: () => HOUR },
  // Signature requests: expiry and automatic reminders (lib/server/signatures/signatures-tick.ts).
  { kind: "signatures.tick", everyMs: () => HOUR },
  // Directories (ldap, adds, domino): accounts, groups and memberships follow the directory (lib/server/identity/sync-directory.ts).
  { kind: "identity.sync", everyMs: () => HOUR },
  // OpenID Connect and SAML: accounts not signed in for their provider's purgeTime are deactivated, and
  // unfinished sign-ins (rows any visitor can create) are forgotten (lib/server/sso/purge-sso-accounts.ts).
  { kind: "sso.purge", everyMs: () => HOUR },
  // Expired OAuth2 tokens and the grants they leave empty (lib/server/oauth2/purge-expired-tokens.ts).
  { kind: "oauth2.purge", everyMs: () => HOUR },
  // Link engagement: the daily figures of the days before today, and page events past
  // ENGAGEMENT_RETENTION_DAYS folded into daily totals (lib/server/engagement/jobs/engagement-daily.ts).
  { kind: "engagement.daily", everyMs: () => 24 * HOUR },
];

/** First pass shortly after start (JOBS_FIRST_TICK_MS, default 30 s), then every few minutes or faster for short periods. */
const firstTickMs = () => Number(process.env.JOBS_FIRST_TICK_MS) || 30_000;
const tickMs = () => Math.max(500, Math.min(5 * 60_000, ...PERIODIC_JOBS.map((job) => job.everyMs())));

/**
 * Enqueues each periodic job that has no pending or running job and none created within its
 * period. The check reads the shared jobs table and the insert is deduplicated per kind, so
 * several server processes on one database enqueue each job once.
 */
export async function enqueuePeriodicJobs(db: Db): Promise<string[]> {
  const enqueued: string[] = [];
  for (const job of PERIODIC_JOBS) {
    if (!(await handlerFor(job.kind))) continue;
    const since = new Date(Date.now() - job.everyMs()).toISOString();
    const recent = rows(
      await db.execute(sql`
        SELECT 1 FROM jobs WHERE kind = ${job.kind}
          AND (status IN ('pending', 'running') OR created_at > ${since}::timestamptz)
        LIMIT 1`),
    );
    if (recent.length > 0) continue;
    await enqueueJob(db, job.kind, {}, { dedupeKey: job.kind });
    enqueued.push(job.kind);
  }
  return enqueued;
}

const state = globalThis as unknown as { __coffreScheduler?: NodeJS.Timeout[] };

/** Started with the job worker: a first pass shortly after start, then every few minutes. */
export function startScheduler() {
  if (state.__coffreScheduler) return;
  const tick = async () => {
    try {
      await enqueuePeriodicJobs(await getDb());
    } catch (error) {
      if (process.env.NODE_ENV !== "test") console.error("[coffre] job scheduler:", (error as Error).message);
    }
  };
  const first = setTimeout(tick, firstTickMs());
  const every = setInterval(tick, tickMs());
  first.unref();
  every.unref();
  state.__coffreScheduler = [first, every];
}

export function stopScheduler() {
  for (const timer of state.__coffreScheduler ?? []) clearTimeout(timer);
  state.__coffreScheduler = undefined;
}
