import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { groupManagers, groupMembers, groups, type User } from "@/db/schema";
import type { UserResponse } from "@/lib/contracts/users";
import { isActiveNow } from "../auth/account-state";
import { getPlatformConfig } from "../config/platform-config";
import { iso } from "../present/envelope";
import { allowedFactors, loadFactors, NO_FACTORS, type Factors } from "../mfa/factors";

type GroupRef = { id: string; login: string };
/** Second factors as the User flags show them: set up (has_*), offered (can_*), demanded by the platform. */
type MfaFlags = { factors: Factors; allowed: { otp: boolean; sms: boolean; webauthn: boolean }; platformRequired: boolean };
type Relations = { groups: GroupRef[]; managerOf: GroupRef[]; mfa: MfaFlags };

/** Loads the groups and managed groups of several users in two queries. */
export async function loadUserRelations(db: DbOrTx, userIds: number[]): Promise<Map<number, Relations>> {
  const config = await getPlatformConfig(db);
  const mfa = (factors: Factors): MfaFlags => ({ factors, allowed: allowedFactors(config), platformRequired: config.mfa_required });
  const result = new Map<number, Relations>(userIds.map((id) => [id, { groups: [], managerOf: [], mfa: mfa(NO_FACTORS) }]));
  if (userIds.length === 0) return result;
  const [members, managers, factors] = await Promise.all([
    db.select({ userId: groupMembers.userId, id: groups.id, login: groups.login }).from(groupMembers).innerJoin(groups, eq(groups.id, groupMembers.groupId)).where(inArray(groupMembers.userId, userIds)),
    db.select({ userId: groupManagers.userId, id: groups.id, login: groups.login }).from(groupManagers).innerJoin(groups, eq(groups.id, groupManagers.groupId)).where(inArray(groupManagers.userId, userIds)),
    loadFactors(db, userIds),
  ]);
  for (const [id, f] of factors) result.get(id)!.mfa = mfa(f);
  for (const m of members) result.get(m.userId)!.groups.push({ id: String(m.id), login: m.login });
  for (const m of managers) result.get(m.userId)!.managerOf.push({ id: String(m.id), login: m.login });
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

/** The groups whose users `userId` administers: a delegate whose `users` scope is off does not. */
export async function groupIdsManagedBy(db: DbOrTx, userId: number): Promise<number[]> {
  const rows = await db.select({ id: groupManagers.groupId }).from(groupManagers).where(and(eq(groupManagers.userId, userId), eq(groupManagers.manageUsers, true)));
  return rows.map((r) => r.id);
}
