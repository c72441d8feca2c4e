import "server-only";
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { preparedOnce } from "@/db/prepared";
import { userMfa, users, type User } from "@/db/schema";
import type { UserResponse } from "@/lib/contracts/users";
import { isActiveNow } from "../auth/account-state";
import { getPlatformConfig } from "../config/platform-config";
import { iso } from "../present/envelope";
import { allowedFactors, factorsOf, NO_FACTORS, type Factors } from "../mfa/factors";

type GroupRef = { id: string; login: string };
/** Second factors as the User flags show them: set up (has_*), offered (can_*), demanded by the platform. */
type MfaFlags = { factors: Factors; allowed: { otp: boolean; sms: boolean; webauthn: boolean }; platformRequired: boolean };
type Relations = { groups: GroupRef[]; managerOf: GroupRef[]; mfa: MfaFlags };

// The groups, managed groups and second factors of users, in one prepared statement (GET /account
// runs it on every call: style.md, a bounded number of statements per request).
const groupsOf = (table: "group_members" | "group_managers") =>
  sql<GroupRef[] | string | null>`(SELECT json_agg(json_build_object('id', g.id::text, 'login', g.login) ORDER BY g.id)
    FROM ${sql.raw(table)} r JOIN groups g ON g.id = r.group_id WHERE r.user_id = ${users.id})`;

const relationsStatement = preparedOnce((db) =>
  db
    .select({
      userId: users.id,
      groups: groupsOf("group_members"),
      managerOf: groupsOf("group_managers"),
      // Flat: drizzle nulls a nested left-joined object when its first column is null.
      otpEnabledAt: userMfa.otpEnabledAt,
      smsEnabledAt: userMfa.smsEnabledAt,
      smsPhone: userMfa.smsPhone,
      keys: sql<number>`(SELECT count(*) FROM mfa_webauthn_credentials k WHERE k.user_id = ${users.id})`.mapWith(Number),
    })
    .from(users)
    .leftJoin(userMfa, eq(userMfa.userId, users.id))
    .where(sql`${users.id} = ANY(${sql.placeholder("userIds")}::int[])`)
    .prepare("user_relations"),
);

/** postgres.js and PGlite parse json; a driver handing back text is parsed here. */
const groupList = (value: GroupRef[] | string | null): GroupRef[] => (typeof value === "string" ? JSON.parse(value) : (value ?? []));

/** Loads the groups, managed groups and second factors of several users in one statement. */
export async function loadUserRelations(db: DbOrTx, userIds: number[]): Promise<Map<number, Relations>> {
  const config = await getPlatformConfig(db);
  const mfa = (factors: Factors): MfaFlags => ({ factors, allowed: allowedFactors(config), platformRequired: config.mfa_required });
  const result = new Map<number, Relations>(userIds.map((id) => [id, { groups: [], managerOf: [], mfa: mfa(NO_FACTORS) }]));
  if (userIds.length === 0) return result;
  for (const row of await relationsStatement(db).execute({ userIds: [...new Set(userIds)] })) {
    result.set(row.userId, { groups: groupList(row.groups), managerOf: groupList(row.managerOf), mfa: mfa(factorsOf(row, row.keys)) });
  }
  return result;
}

export function serializeUser(user: User, relations: Relations, options: { currentLanguage?: string } = {}): UserResponse {
  return {
    id: String(user.id),
    login: user.login,
    firstname: user.firstname,
    lastname: user.lastname,
    email: user.email,
    roots: user.privateRootId ? [user.privateRootId] : [],
    organization: user.organization,
    phone: user.phone,
    active: isActiveNow(user),
    language: user.language,
    ...(options.currentLanguage ? { current_language: options.currentLanguage } : {}),
    quota: user.quota,
    expire: iso(user.expire),
    creation_date: iso(user.createdAt),
    last_login: iso(user.lastLogin),
    ldap: user.ldap,
    can_edit_options: user.canEditOptions,
    can_admin: user.role === 3,
    can_admin_users: user.role === 3 || (user.role === 4 && relations.managerOf.length > 0),
    groups: relations.groups,
    manager_of: relations.managerOf,
    // The contract's "yubikey" is any security key (WebAuthn).
    has_mfa_yubikey: relations.mfa.factors.webauthn > 0,
    has_mfa_otp: relations.mfa.factors.otp,
    has_mfa_sms: relations.mfa.factors.sms,
    can_mfa_yubikey: relations.mfa.allowed.webauthn,
    can_mfa_otp: relations.mfa.allowed.otp,
    can_mfa_sms: relations.mfa.allowed.sms,
    // Demanded of this account, by an administrator (PUT /user) or the whole platform.
    mfa_required: user.mfaRequired || relations.mfa.platformRequired,
    role: user.role,
  };
}

/** Reads one user with relations and serialises it. */
export async function presentUser(db: DbOrTx, user: User, options: { currentLanguage?: string } = {}) {
  const relations = await loadUserRelations(db, [user.id]);
  return serializeUser(user, relations.get(user.id)!, options);
}

