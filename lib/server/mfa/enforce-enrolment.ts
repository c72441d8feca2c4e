import "server-only";
import { sql } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";
import type { User } from "@/db/schema";
import { getPlatformConfig } from "../config/platform-config";
import { AppError } from "../errors";
import { isMfaRequired } from "./factors";

// What a person who must set up a second factor may still do: set it up, read their account,
// sign out. Everything else answers 401 mfa_enrollment_required (api.md, "forced").
const OPEN: { path: RegExp; methods?: string[] }[] = [
  { path: /^\/api\/account\/mfa(\/|$)/ },
  { path: /^\/api\/account\/?$/, methods: ["GET", "HEAD"] },
  { path: /^\/api\/auth\/?$/, methods: ["DELETE"] },
];

/** True when the user has a second factor, in one round trip. */
export async function hasAnyFactor(db: DbOrTx, userId: number): Promise<boolean> {
  const result = await db.execute(sql`
    SELECT (EXISTS (SELECT 1 FROM user_mfa WHERE user_id = ${userId} AND (otp_enabled_at IS NOT NULL OR sms_enabled_at IS NOT NULL))
         OR EXISTS (SELECT 1 FROM mfa_webauthn_credentials WHERE user_id = ${userId})) AS ok`);
  return Boolean(rows<{ ok: boolean }>(result)[0]?.ok);
}

/**
 * True when the account must set up a second factor before anything else. `hasFactor`, when the
 * caller already read it (authenticateToken does, in the session lookup), saves the query.
 */
export async function mustEnrolSecondFactor(db: DbOrTx, user: User, hasFactor?: boolean): Promise<boolean> {
  // The configuration is cached per process and the flag rides on the user row: accounts that
  // are not asked for a factor cost no query here.
  if (!isMfaRequired(user, await getPlatformConfig(db))) return false;
  return !(hasFactor ?? (await hasAnyFactor(db, user.id)));
}

/**
 * Called for every authenticated API request (lib/server/http/route.ts) with the person signed in
 * (not the AsId target): refuses all but enrolment while a demanded factor is missing.
 */
export async function assertSecondFactorEnrolled(db: DbOrTx, session: { user: User; hasSecondFactor?: boolean }, req: Request, pathname?: string): Promise<void> {
  if (!(await mustEnrolSecondFactor(db, session.user, session.hasSecondFactor))) return;
  const path = pathname ?? new URL(req.url).pathname;
  if (OPEN.some((o) => o.path.test(path) && (!o.methods || o.methods.includes(req.method)))) return;
  throw new AppError("mfa_enrollment_required", "Set up a second factor first (GET /api/account/mfa)", { enroll: "/api/account/mfa" });
}
