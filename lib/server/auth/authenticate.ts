import "server-only";
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { preparedOnce } from "@/db/prepared";
import { sessions, users, type User } from "@/db/schema";
import { getPlatformConfig } from "../config/platform-config";
import type { Actor } from "../context";
import { AppError } from "../errors";
import { assertConnectionAllowed } from "../options/assert-connection-allowed";
import { inheritedOptionsColumn, ownOptions, resolveOptions } from "../options/effective-options";
import { accountRefusal } from "./account-state";
import { managesUser } from "../users/managed-users";
import { hashToken } from "./tokens";

const TOUCH_EVERY_MS = 30_000;

// Every request runs this lookup: as a prepared statement, PostgreSQL plans it once per connection
// instead of once per request (the options subquery made planning cost more than executing).
// Read with the session so that enforcing a demanded second factor costs no round trip of its own.
const hasSecondFactorColumn = sql<boolean>`(EXISTS (SELECT 1 FROM user_mfa m WHERE m.user_id = ${users.id} AND (m.otp_enabled_at IS NOT NULL OR m.sms_enabled_at IS NOT NULL))
  OR EXISTS (SELECT 1 FROM mfa_webauthn_credentials k WHERE k.user_id = ${users.id}))`;

const sessionLookup = preparedOnce((db) =>
  db
    .select({ session: sessions, user: users, ownOptions, inheritedOptions: inheritedOptionsColumn(), hasSecondFactor: hasSecondFactorColumn })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(ownOptions, eq(ownOptions.targetId, users.id))
    .where(eq(sessions.tokenHash, sql.placeholder("tokenHash")))
    .limit(1)
    .prepare("authenticate_session"),
);

/**
 * Resolves a raw session token to its live session and user, enforcing session_limit/session_idle
 * and the connection options (address, day, hour in the platform's time zone) for a request coming from `ip`. The
 * options ride on the session lookup itself, so the check costs no extra round trip and a change
 * applies to the very next request in every process.
 */
export type AuthenticatedSession = {
  user: User;
  sessionId: number;
  scope: string | null;
  /** Whether the user has a second factor set up, read by the same statement (enforce-enrolment.ts). */
  hasSecondFactor: boolean;
};

export async function authenticateToken(db: DbOrTx, token: string, ip: string): Promise<AuthenticatedSession> {
  const [row] = await sessionLookup(db).execute({ tokenHash: hashToken(token) });
  // An app password itself is never a bearer token: it signs in through WebDAV Basic or POST /auth only (api.md, "Account security").
  if (!row || (row.session.kind === "app_password" && row.session.parentId === null)) throw new AppError("unauthorized", "The token is missing, unknown or expired");

  const config = await getPlatformConfig(db);
  const now = Date.now();
  const tooOld = now - row.session.createdAt.getTime() > config.session_limit * 60_000;
  const idle = now - row.session.lastUsedAt.getTime() > config.session_idle * 60_000;
  // OAuth2 access tokens (a scope) live until their own expiry, none for `offline` (api.md, "OAuth2").
  // A session opened with an app password has a scope (`files`) but lives as a sign-in session does.
  const oauth = row.session.scope !== null && row.session.kind !== "app_password";
  const ended = oauth ? row.session.expiresAt !== null && row.session.expiresAt.getTime() <= now : tooOld || idle;
  if (ended) {
    await db.delete(sessions).where(eq(sessions.id, row.session.id));
    throw new AppError("unauthorized", "The session has expired; connect again");
  }
  if (oauth && !config.features.oauth2) throw new AppError("unauthorized", "OAuth2 applications are disabled on this platform");
  const refusal = accountRefusal(row.user);
  if (refusal) throw new AppError("unauthorized", refusal);
  assertConnectionAllowed(resolveOptions(row.ownOptions, row.inheritedOptions).options, { ip, now: new Date(now), kind: row.session.kind, timeZone: config.time_zone });

  // Writing on every request would cost throughput; idle limits are minutes, so this is exact enough.
  if (now - row.session.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    await db.update(sessions).set({ lastUsedAt: new Date(now) }).where(eq(sessions.id, row.session.id));
  }
  return { user: row.user, sessionId: row.session.id, scope: row.session.scope, hasSecondFactor: Boolean(row.hasSecondFactor) };
}

/**
 * AsId (also As): administrators act as anyone; managers as the external users and users of the
 * groups they manage (never as another manager or an administrator).
 * Anyone else gets a 403.
 */
export async function applyAsId(db: DbOrTx, real: { user: User; sessionId: number }, asId: string | null): Promise<Actor> {
  const base: Actor = { user: real.user, realUser: real.user, sessionId: real.sessionId };
  if (asId === null || asId.trim() === "") return base;
  const targetId = Number(asId);
  if (!Number.isInteger(targetId) || targetId <= 0) throw new AppError("invalid_request", "AsId must be a user id");
  if (targetId === real.user.id) return base;
  if (real.user.role !== 3 && real.user.role !== 4) throw new AppError("forbidden", "You may not act as another user");

  const [target] = await db.select().from(users).where(eq(users.id, targetId)).limit(1);
  if (!target || target.deletedAt) {
    if (real.user.role === 3) throw new AppError("not_found", "User not found");
    throw new AppError("forbidden", "You may not act as this user");
  }
  // A manager becomes only someone they may administer: external users and users of their groups.
  // Acting as another manager would reach that manager's groups; as an administrator, everything.
  if (real.user.role === 4 && (target.role === 3 || target.role === 4)) throw new AppError("forbidden", "Managers may act only as external users and users of their groups");
  if (real.user.role === 4 && !(await managesUser(db, real.user.id, target.id))) {
    throw new AppError("forbidden", "You may not act as this user");
  }
  return { user: target, realUser: real.user, sessionId: real.sessionId };
}

