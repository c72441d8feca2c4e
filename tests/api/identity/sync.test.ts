import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as oneRoute from "@/app/api/identity/provider/[providerId]/route";
import * as syncRoute from "@/app/api/identity/provider/[providerId]/sync/route";
import { getDb } from "@/db";
import { syncIdentityProviderResponse as syncResponse } from "@/lib/contracts/identity-providers";
import { groupMembers, groups, identityProviders, jobs, logs, users } from "@/db/schema";
import { authenticateToken } from "@/lib/server/auth/authenticate";
import { PERIODIC_JOBS } from "@/lib/server/jobs/scheduler";
import { handlerFor } from "@/lib/server/jobs/registry";
import { syncDirectory, syncIdentityJob } from "@/lib/server/identity/sync-directory";
import { createAdmin } from "../../helpers/factories";
import { onOwnDatabase } from "../../helpers/own-database";
import { call, expectError } from "../../helpers/http";
import { runJobsUntil } from "../../helpers/jobs";
import { groupDn, type Slapd, startSlapd, userDn } from "../../helpers/slapd";
import { createProvider, ldapBody, removeProviders, signIn } from "./identity-helpers";

let slapd: Slapd;
let admin: Awaited<ReturnType<typeof createAdmin>>;
let providerId = "";
// Directories made unreachable here would turn other files' unknown logins into 503s: a database of its own.
onOwnDatabase("coffre_ldapsync");

beforeAll(async () => {
  slapd = await startSlapd();
  admin = await createAdmin();
  providerId = (await createProvider(admin.token, ldapBody(slapd))).id;
}, 60_000);
afterAll(async () => {
  await removeProviders();
  await slapd?.close();
});

async function providerRow() {
  const db = await getDb();
  const [row] = await db.select().from(identityProviders).where(eq(identityProviders.id, Number(providerId)));
  return row;
}

async function account(login: string) {
  const db = await getDb();
  const [user] = await db.select().from(users).where(sql`lower(${users.login}) = lower(${login})`);
  return user;
}

async function groupsOf(userId: number) {
  const db = await getDb();
  const rows = await db.select({ login: groups.login }).from(groupMembers).innerJoin(groups, eq(groups.id, groupMembers.groupId)).where(eq(groupMembers.userId, userId));
  return rows.map((r) => r.login).sort();
}

describe("directory synchronisation (identity.sync)", () => {
  it("is queued on demand (202 with the job id, one pending job per provider) and creates accounts, groups and nested memberships", async () => {
    const res = await call(syncRoute.POST, { method: "POST", token: admin.token, params: { providerId } });
    expect(res.status, res.text).toBe(202);
    const queued = syncResponse.parse(res.body);
    expect(queued).toMatchObject({ provider_id: providerId, status: "pending" });
    const again = await call(syncRoute.POST, { method: "POST", token: admin.token, params: { providerId } });
    expect(again.body.job_id).toBe(queued.job_id);
    const db = await getDb();
    const [job] = await db.select().from(jobs).where(eq(jobs.id, queued.job_id));
    expect(job).toMatchObject({ kind: "identity.sync", payload: { provider_id: Number(providerId) } });

    await runJobsUntil(["identity.sync"], async () => ((await providerRow()).lastSyncAt ? true : null), 20_000);
    const row = await providerRow();
    expect(row.lastSyncStatus).toBe("ok");
    expect(row.lastSyncResult).toMatchObject({ users_created: 3, groups_created: 3, users_deactivated: 0, conflicts: [] });
    const [done] = await db.select().from(jobs).where(eq(jobs.id, queued.job_id));
    expect(done.status).toBe("done");

    const [alice, bob, carol] = slapd.people;
    for (const p of slapd.people) expect(await account(p.uid)).toMatchObject({ ldap: true, active: true, email: p.mail, role: 2 });
    expect(await groupsOf((await account(alice.uid)).id)).toEqual([slapd.groups.engineering, slapd.groups.staff].sort());
    expect(await groupsOf((await account(bob.uid)).id)).toEqual([slapd.groups.staff]);
    expect(await groupsOf((await account(carol.uid)).id)).toEqual([slapd.groups.sales]);
    const made = await db.select().from(groups).where(inArray(groups.login, Object.values(slapd.groups)));
    expect(made.map((g) => g.ldap)).toEqual([true, true, true]);

    const read = await call(oneRoute.GET, { token: admin.token, params: { providerId } });
    expect(read.body).toMatchObject({ status: "ok", last_sync_status: "ok", last_sync_result: { users_created: 3 } });
    expect(read.body.last_sync).toBe(row.lastSyncAt!.toISOString());
    const [summary] = await db
      .select()
      .from(logs)
      .where(and(eq(logs.objectType, "identity_provider"), eq(logs.objectId, providerId), sql`${logs.message} LIKE 'Synchronised%'`));
    expect(summary.message).toContain("3 created");
  });

  it("changes nothing when run twice", async () => {
    const result = await syncDirectory(await getDb(), await providerRow());
    expect(result).toEqual({
      users_created: 0,
      users_updated: 0,
      users_deactivated: 0,
      users_unchanged: 3,
      groups_created: 0,
      groups_updated: 0,
      groups_emptied: 0,
      memberships_added: 0,
      memberships_removed: 0,
      conflicts: [],
    });
  });

  it("updates changed entries, deactivates removed ones (not deleted, signed out), drops memberships of removed groups", async () => {
    const [alice, bob, carol] = slapd.people;
    const carolSession = await signIn(carol.uid, carol.password);
    expect(carolSession.status).toBe(200);
    const carolBefore = await account(carol.uid);

    await slapd.modify([`dn: ${userDn(bob.uid)}`, "changetype: modify", "replace: sn", "sn: Durand-Lefebvre", "-", "replace: mail", `mail: new-${bob.mail}`, ""].join("\n"));
    await slapd.remove(userDn(carol.uid));
    await slapd.remove(groupDn(slapd.groups.sales));
    // alice leaves engineering: no longer in staff either (she was there only through engineering).
    await slapd.modify([`dn: ${groupDn(slapd.groups.engineering)}`, "changetype: modify", "replace: member", `member: cn=nobody,ou=system,${slapd.baseDN}`, ""].join("\n"));

    const db = await getDb();
    const result = await syncDirectory(db, await providerRow());
    // alice: engineering and staff; carol: sales (with her account). The sales group stays, empty, with its rights.
    expect(result).toMatchObject({ users_created: 0, users_updated: 1, users_deactivated: 1, memberships_added: 0, memberships_removed: 3, conflicts: [] });

    expect(await account(bob.uid)).toMatchObject({ lastname: "Durand-Lefebvre", email: `new-${bob.mail}`, active: true });
    const carolAfter = await account(carol.uid);
    expect(carolAfter).toMatchObject({ id: carolBefore.id, active: false, deletedAt: null, ldap: true });
    expect(await groupsOf(carolAfter.id)).toEqual([]);
    await expect(authenticateToken(db, carolSession.body.token, "10.0.0.1")).rejects.toMatchObject({ code: "unauthorized" });
    expectError(await signIn(carol.uid, carol.password), 401, "unauthorized");
    expect(await groupsOf((await account(alice.uid)).id)).toEqual([]);
    const [sales] = await db.select().from(groups).where(eq(groups.login, slapd.groups.sales));
    expect(sales).toBeDefined();
    expect(await db.select().from(groupMembers).where(eq(groupMembers.groupId, sales.id))).toEqual([]);
    const [deactivated] = await db.select().from(logs).where(and(eq(logs.objectType, "user"), eq(logs.objectId, String(carolAfter.id)), sql`${logs.message} LIKE 'Deactivated%'`));
    expect(deactivated.message).toContain("no longer in identity provider");

    // And again: nothing left to do.
    const second = await syncDirectory(db, await providerRow());
    expect(second).toMatchObject({ users_updated: 0, users_deactivated: 0, groups_emptied: 0, memberships_added: 0, memberships_removed: 0 });
  });

  it("records a failure on the provider when the directory cannot be reached", async () => {
    const down = await createProvider(admin.token, ldapBody(slapd, { servers: ["ldap://127.0.0.1:1"], timeout: 500, enable: false }));
    const db = await getDb();
    await expect(syncIdentityJob(db, { provider_id: Number(down.id) })).rejects.toThrow(/Synchronisation failed/);
    const [row] = await db.select().from(identityProviders).where(eq(identityProviders.id, Number(down.id)));
    expect(row.lastSyncStatus).toBe("error");
    expect(JSON.stringify(row.lastSyncResult)).toMatch(/127\.0\.0\.1:1/);
    expect((await call(oneRoute.GET, { token: admin.token, params: { providerId: down.id } })).body.status).toBe("disabled");
    // A disabled provider is not synchronised on demand.
    expectError(await call(syncRoute.POST, { method: "POST", token: admin.token, params: { providerId: down.id } }), 409, "conflict");
    expectError(await call(syncRoute.POST, { method: "POST", token: admin.token, params: { providerId: "999999" } }), 404, "not_found");
  });

  it("runs every hour through the scheduler", async () => {
    expect(PERIODIC_JOBS.find((j) => j.kind === "identity.sync")?.everyMs()).toBe(3_600_000);
    expect(await handlerFor("identity.sync")).toBe(syncIdentityJob);
  });

  it("leaves the accounts and groups local when the provider is deleted", async () => {
    const bob = await account(slapd.people[1].uid);
    const res = await call(oneRoute.DELETE, { method: "DELETE", token: admin.token, params: { providerId } });
    expect(res.status).toBe(204);
    expect(await account(bob.login)).toMatchObject({ id: bob.id, ldap: false, active: true });
    const db = await getDb();
    const [staff] = await db.select().from(groups).where(eq(groups.login, slapd.groups.staff));
    expect(staff.ldap).toBe(false);
  });
});
