import "server-only";
import { and, asc, eq, inArray, isNull, notInArray } from "drizzle-orm";
import type { Entry } from "ldapts";
import type { Db } from "@/db";
import { groupMembers, identityLinks, identityProviders, users, type IdentityProviderRow } from "@/db/schema";
import { isLdapType, LDAP_TYPES } from "@/lib/contracts/identity-providers";
import { writeLog } from "../audit/write-log";
import { getPlatformConfig } from "../config/platform-config";
import { revokeUserSessions } from "../users/revoke-user-sessions";
import { openDirectory } from "./ldap-client";
import { groupAttributes, normalizeDn, personAttributes, toGroup, toPerson, type DirectoryGroup, type DirectoryPerson } from "./ldap-entries";
import { membershipsInMemory } from "./ldap-groups";
import { ldapSettings } from "./ldap-settings";
import { ensureDirectoryGroups, setDirectoryMemberships, upsertDirectoryUser } from "./provision-account";

export const SYNC_JOB = "identity.sync";

export type SyncResult = {
  users_created: number;
  users_updated: number;
  users_deactivated: number;
  users_unchanged: number;
  groups_created: number;
  groups_updated: number;
  groups_emptied: number;
  memberships_added: number;
  memberships_removed: number;
  conflicts: string[];
};

const SYSTEM = { actor: null, request: { ip: "system", userAgent: "identity.sync" } };

/**
 * The `identity.sync` job: `{provider_id}` synchronises one provider, `{}` (the hourly run)
 * every enabled directory. Its outcome is kept on the provider (last_sync*); a failure is
 * recorded there too and rethrown so the job is retried and shown to administrators.
 */
export async function syncIdentityJob(db: Db, payload: Record<string, unknown>) {
  const id = Number(payload.provider_id);
  const providers = Number.isInteger(id) && id > 0
    ? await db.select().from(identityProviders).where(eq(identityProviders.id, id))
    : await db
        .select()
        .from(identityProviders)
        .where(and(eq(identityProviders.enable, true), eq(identityProviders.isDirectory, true), inArray(identityProviders.type, [...LDAP_TYPES])))
        .orderBy(asc(identityProviders.id));
  const failures: string[] = [];
  for (const provider of providers) {
    if (!isLdapType(provider.type)) continue;
    try {
      await syncDirectory(db, provider);
    } catch (error) {
      failures.push(`${provider.name}: ${(error as Error).message}`);
    }
  }
  if (failures.length) throw new Error(`Synchronisation failed for ${failures.join("; ")}`);
}

/**
 * Reads every person (userFilter) and group (groupFilter) of the directory, then in one
 * transaction: creates and updates accounts and groups, sets memberships (nested ones when
 * `recursive`), deactivates the accounts whose entry is gone and empties the groups that are
 * gone (they stay, with their rights, for an administrator to decide). Running it twice changes
 * nothing the second time.
 */
export async function syncDirectory(db: Db, provider: IdentityProviderRow): Promise<SyncResult> {
  const s = await ldapSettings(provider);
  let peopleEntries: Entry[];
  let groupEntries: Entry[];
  try {
    const conn = await openDirectory(s);
    try {
      peopleEntries = await conn.search(s.baseDN, { filter: s.userFilter, attributes: personAttributes(s), paged: true });
      groupEntries = s.gtuIn || s.utgIn ? await conn.search(s.baseDN, { filter: s.groupFilter, attributes: groupAttributes(s), paged: true }) : [];
    } finally {
      await conn.close();
    }
  } catch (error) {
    await db
      .update(identityProviders)
      .set({ lastSyncAt: new Date(), lastSyncStatus: "error", lastSyncResult: { error: (error as Error).message } })
      .where(eq(identityProviders.id, provider.id));
    await writeLog(db, SYSTEM, { type: "ADMLLOG_UPDATE", ok: false, message: `Synchronisation of ${provider.name} failed: ${(error as Error).message}`, objectType: "identity_provider", objectId: provider.id, object: provider.name });
    throw error;
  }

  const memberships = membershipsInMemory(s, peopleEntries, groupEntries);
  const people: Array<{ person: DirectoryPerson; groups: string[] }> = [];
  const result: SyncResult = { users_created: 0, users_updated: 0, users_deactivated: 0, users_unchanged: 0, groups_created: 0, groups_updated: 0, groups_emptied: 0, memberships_added: 0, memberships_removed: 0, conflicts: [] };
  for (const entry of peopleEntries) {
    const person = toPerson(s, entry);
    if (!person) {
      result.conflicts.push(`Entry ${entry.dn}: no ${s.person.id || "id"} or ${s.person.login || "login"}`);
      continue;
    }
    people.push({ person, groups: [...(memberships.get(normalizeDn(entry.dn)) ?? [])] });
  }
  const groups = groupEntries.flatMap((e) => toGroup(s, e) ?? []);
  const groupByDn = new Map<string, DirectoryGroup>(groups.map((g) => [normalizeDn(g.dn), g]));
  const config = await getPlatformConfig(db);
  const ref = { id: provider.id, name: provider.name };

  await db.transaction(async (tx) => {
    // One synchronisation of a provider at a time: the second waits, then finds nothing to do.
    await tx.select({ id: identityProviders.id }).from(identityProviders).where(eq(identityProviders.id, provider.id)).for("update");
    const ensured = await ensureDirectoryGroups(tx, ref, groups, SYSTEM);
    result.groups_created = ensured.created;
    result.groups_updated = ensured.updated;
    result.conflicts.push(...ensured.conflicts);

    const seenUsers: number[] = [];
    for (const { person, groups: groupDns } of people) {
      const outcome = await upsertDirectoryUser(tx, ref, person, SYSTEM, { organizationGroups: config.organization_groups });
      if (outcome.status === "conflict") {
        result.conflicts.push(outcome.reason);
        continue;
      }
      if (outcome.status === "deleted") continue;
      seenUsers.push(outcome.user.id);
      if (outcome.status === "created") result.users_created++;
      else if (outcome.status === "updated" && outcome.changed.length) result.users_updated++;
      else result.users_unchanged++;
      const ids = groupDns.flatMap((dn) => {
        const g = groupByDn.get(dn);
        const groupId = g && ensured.ids.get(g.externalId);
        return groupId ? [groupId] : [];
      });
      const change = await setDirectoryMemberships(tx, provider.id, outcome.user.id, ids);
      result.memberships_added += change.added;
      result.memberships_removed += change.removed;
    }

    // Entries gone from the directory: their accounts are deactivated, never deleted.
    const gone = await tx
      .select({ id: users.id, login: users.login })
      .from(identityLinks)
      .innerJoin(users, eq(users.id, identityLinks.userId))
      .where(and(eq(identityLinks.providerId, provider.id), eq(users.active, true), isNull(users.deletedAt), seenUsers.length ? notInArray(users.id, seenUsers) : undefined));
    for (const user of gone) {
      await tx.update(users).set({ active: false }).where(eq(users.id, user.id));
      await revokeUserSessions(tx, user.id);
      result.memberships_removed += (await setDirectoryMemberships(tx, provider.id, user.id, [])).removed;
      await writeLog(tx, SYSTEM, { type: "ADMLLOG_UPDATE", message: `Deactivated user ${user.login}: no longer in identity provider ${provider.name}`, objectType: "user", objectId: user.id, object: user.login });
      result.users_deactivated++;
    }

    // Groups gone from the directory keep their rights but lose their directory members.
    const keptGroups = [...ensured.ids.values()];
    const goneGroups = await tx
      .select({ groupId: identityLinks.groupId })
      .from(identityLinks)
      .where(and(eq(identityLinks.providerId, provider.id), eq(identityLinks.kind, "group"), keptGroups.length ? notInArray(identityLinks.groupId, keptGroups) : undefined));
    for (const { groupId } of goneGroups) {
      if (groupId === null) continue;
      const removed = await tx.delete(groupMembers).where(eq(groupMembers.groupId, groupId)).returning({ userId: groupMembers.userId });
      if (removed.length) {
        result.groups_emptied++;
        result.memberships_removed += removed.length;
      }
    }

    await tx
      .update(identityProviders)
      .set({ lastSyncAt: new Date(), lastSyncStatus: result.conflicts.length ? "warning" : "ok", lastSyncResult: result })
      .where(eq(identityProviders.id, provider.id));
    await writeLog(tx, SYSTEM, {
      type: "ADMLLOG_UPDATE",
      message: `Synchronised ${provider.name}: ${result.users_created} created, ${result.users_updated} updated, ${result.users_deactivated} deactivated, ${result.groups_created} groups created, ${result.memberships_added} memberships added, ${result.memberships_removed} removed${result.conflicts.length ? `, ${result.conflicts.length} conflict(s)` : ""}`,
      objectType: "identity_provider",
      objectId: provider.id,
      object: provider.name,
    });
  });
  return result;
}
