import "server-only";
import { and, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { groupMembers, groups, identityLinks, users, type User } from "@/db/schema";
import { ROLE } from "@/db/schema/users";
import { writeLog } from "../audit/write-log";
import type { RequestInfo } from "../context";
import { createPrivateSpace } from "../folders/create-private-space";
import { joinOrganizationGroup } from "../groups/organization-group";
import { revokeUserSessions } from "../users/revoke-user-sessions";
import { type LinkRefusal, linkRefusal } from "./account-linking";
import type { DirectoryGroup, DirectoryPerson } from "./ldap-entries";

export type Provider = { id: number; name: string };
export type Who = { actor: User | null; request: RequestInfo };

export type UserOutcome =
  | { status: "created" | "updated" | "unchanged"; user: User; changed: string[] }
  /**
   * A platform account not from this provider already has the login: never taken over.
   * `refused`: the account, and why account-linking.ts does not link it, for the sign-in's log.
   */
  | { status: "conflict"; reason: string; refused?: { user: User; refusal: LinkRefusal } }
  /** The account this entry became was deleted on the platform: not brought back. */
  | { status: "deleted" };

// Directory field → users column; compared before writing so an unchanged entry writes nothing.
const MAPPED = {
  login: "login",
  firstname: "firstname",
  lastname: "lastname",
  email: "email",
  phone: "phone",
  organization: "organization",
  language: "language",
  active: "active",
  canEditOptions: "canEditOptions",
  expire: "expire",
  quota: "quota",
} as const satisfies Partial<Record<keyof DirectoryPerson, keyof User>>;

function same(a: unknown, b: unknown) {
  if (a instanceof Date || b instanceof Date) return (a instanceof Date ? a.getTime() : a) === (b instanceof Date ? b.getTime() : b);
  return a === b;
}

async function loginTaken(db: DbOrTx, login: string, exceptUserId: number | null) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.login}) = lower(${login})`, isNull(users.deletedAt), exceptUserId === null ? undefined : ne(users.id, exceptUserId)))
    .limit(1);
  return Boolean(row);
}

/**
 * Creates or updates the account an entry of `provider` became (found by the entry's stable id,
 * never by login, so a local account is never taken over), marks it `ldap`, and records when it
 * was seen. The account's fields, its email included, follow the directory: every account linked
 * to a directory was created by it (directories never link an existing account, and the
 * console links only single sign-on identities: set-user-identity.ts). A returning entry is reactivated.
 */
export async function upsertDirectoryUser(db: DbOrTx, provider: Provider, person: DirectoryPerson, who: Who, options: { organizationGroups: boolean }): Promise<UserOutcome> {
  const now = new Date();
  const [link] = await db
    .select({ id: identityLinks.id, user: users })
    .from(identityLinks)
    .innerJoin(users, eq(users.id, identityLinks.userId))
    .where(and(eq(identityLinks.providerId, provider.id), eq(identityLinks.kind, "user"), eq(identityLinks.externalId, person.externalId)))
    .limit(1);

  if (!link) {
    const [holder] = await db.select().from(users).where(and(sql`lower(${users.login}) = lower(${person.login})`, isNull(users.deletedAt))).limit(1);
    if (holder) {
      // A login the directory asserts is not proof of the same person: the one rule of account-linking.ts refuses it.
      const refusal = (await linkRefusal(db, holder, "login", { providerId: provider.id, externalId: person.externalId })) ?? "login_not_proof";
      return { status: "conflict", reason: `An account with the login "${person.login}" already exists on the platform`, refused: { user: holder, refusal } };
    }
    const [created] = await db
      .insert(users)
      .values({
        login: person.login,
        passwordHash: null,
        firstname: person.firstname,
        lastname: person.lastname,
        email: person.email,
        phone: person.phone,
        organization: person.organization,
        language: person.language,
        active: person.active,
        canEditOptions: person.canEditOptions ?? true,
        expire: person.expire ?? null,
        quota: person.quota ?? null,
        role: ROLE.user,
        ldap: true,
      })
      .returning();
    created.privateRootId = await createPrivateSpace(db, created.id);
    await db.insert(identityLinks).values({ providerId: provider.id, kind: "user", userId: created.id, externalId: person.externalId, dn: person.dn, seenAt: now });
    if (options.organizationGroups && created.organization) await joinOrganizationGroup(db, created.id, created.organization);
    await writeLog(db, who, { type: "ADMLLOG_INSERT", message: `Created user ${created.login} from identity provider ${provider.name}`, objectType: "user", objectId: created.id, object: created.login });
    return { status: "created", user: created, changed: [] };
  }

  const current = link.user;
  if (current.deletedAt) return { status: "deleted" };
  const set: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(MAPPED)) {
    const value = person[field as keyof typeof MAPPED];
    if (value === undefined || same(current[column], value)) continue;
    set[column] = value;
  }
  if (set.login !== undefined && (await loginTaken(db, person.login, current.id))) {
    return { status: "conflict", reason: `The directory renamed ${current.login} to "${person.login}", which another account uses` };
  }
  if (!current.ldap) set.ldap = true;
  await db.update(identityLinks).set({ dn: person.dn, seenAt: now }).where(eq(identityLinks.id, link.id));
  const changed = Object.keys(set).filter((k) => k !== "ldap");
  if (Object.keys(set).length === 0) return { status: "unchanged", user: current, changed: [] };
  const [updated] = await db.update(users).set(set).where(eq(users.id, current.id)).returning();
  if (set.active === false) await revokeUserSessions(db, current.id);
  if (options.organizationGroups && set.organization) await joinOrganizationGroup(db, updated.id, updated.organization);
  if (changed.length) {
    await writeLog(db, who, { type: "ADMLLOG_UPDATE", message: `Updated user ${updated.login} from identity provider ${provider.name}: ${changed.join(", ")}`, objectType: "user", objectId: updated.id, object: updated.login });
  }
  return { status: "updated", user: updated, changed };
}

export type GroupsOutcome = { ids: Map<string, number>; created: number; updated: number; conflicts: string[] };

/**
 * The platform groups for directory groups (by their stable id), created `ldap` (read-only)
 * when new and renamed when the directory renamed them. A local group holding the name is left
 * alone: the directory group is then skipped and reported.
 */
export async function ensureDirectoryGroups(db: DbOrTx, provider: Provider, wanted: DirectoryGroup[], who: Who): Promise<GroupsOutcome> {
  const outcome: GroupsOutcome = { ids: new Map(), created: 0, updated: 0, conflicts: [] };
  if (wanted.length === 0) return outcome;
  const now = new Date();
  const linked = await db
    .select({ linkId: identityLinks.id, externalId: identityLinks.externalId, group: groups })
    .from(identityLinks)
    .innerJoin(groups, eq(groups.id, identityLinks.groupId))
    .where(and(eq(identityLinks.providerId, provider.id), eq(identityLinks.kind, "group"), inArray(identityLinks.externalId, wanted.map((g) => g.externalId))));
  const byExternal = new Map(linked.map((l) => [l.externalId, l]));

  for (const g of wanted) {
    const existing = byExternal.get(g.externalId);
    if (existing) {
      outcome.ids.set(g.externalId, existing.group.id);
      await db.update(identityLinks).set({ dn: g.dn, seenAt: now }).where(eq(identityLinks.id, existing.linkId));
      if (existing.group.login !== g.login || !existing.group.ldap) {
        const [clash] = await db.select({ id: groups.id }).from(groups).where(and(sql`lower(${groups.login}) = lower(${g.login})`, ne(groups.id, existing.group.id))).limit(1);
        if (clash) {
          outcome.conflicts.push(`Group "${g.login}": another group has this name`);
          continue;
        }
        await db.update(groups).set({ login: g.login, ldap: true }).where(eq(groups.id, existing.group.id));
        await writeLog(db, who, { type: "ADMLLOG_UPDATE", message: `Updated group ${g.login} from identity provider ${provider.name}`, objectType: "group", objectId: existing.group.id, object: g.login });
        outcome.updated++;
      }
      continue;
    }
    const [clash] = await db.select({ id: groups.id }).from(groups).where(sql`lower(${groups.login}) = lower(${g.login})`).limit(1);
    if (clash) {
      outcome.conflicts.push(`Group "${g.login}": a platform group already has this name`);
      continue;
    }
    const [created] = await db.insert(groups).values({ login: g.login, ldap: true }).returning();
    await db.insert(identityLinks).values({ providerId: provider.id, kind: "group", groupId: created.id, externalId: g.externalId, dn: g.dn, seenAt: now });
    await writeLog(db, who, { type: "ADMLLOG_INSERT", message: `Created group ${g.login} from identity provider ${provider.name}`, objectType: "group", objectId: created.id, object: g.login });
    outcome.ids.set(g.externalId, created.id);
    outcome.created++;
  }
  return outcome;
}

/**
 * Makes a user's memberships in this provider's groups exactly `groupIds`; memberships in local
 * groups (and other providers' groups) are not touched.
 */
export async function setDirectoryMemberships(db: DbOrTx, providerId: number, userId: number, groupIds: number[]): Promise<{ added: number; removed: number }> {
  const current = await db
    .select({ groupId: groupMembers.groupId })
    .from(groupMembers)
    .innerJoin(identityLinks, and(eq(identityLinks.groupId, groupMembers.groupId), eq(identityLinks.providerId, providerId)))
    .where(eq(groupMembers.userId, userId));
  const have = new Set(current.map((r) => r.groupId));
  const want = new Set(groupIds);
  const remove = [...have].filter((id) => !want.has(id));
  const add = [...want].filter((id) => !have.has(id));
  if (remove.length) await db.delete(groupMembers).where(and(eq(groupMembers.userId, userId), inArray(groupMembers.groupId, remove)));
  if (add.length) await db.insert(groupMembers).values(add.map((groupId) => ({ groupId, userId }))).onConflictDoNothing();
  return { added: add.length, removed: remove.length };
}
