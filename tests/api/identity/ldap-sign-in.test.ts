import { and, eq, inArray, sql } from "drizzle-orm";
import type { CredentialsConfig } from "next-auth/providers/credentials";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as accountRoute from "@/app/api/account/route";
import * as authRoute from "@/app/api/auth/route";
import * as userRoute from "@/app/api/user/[userId]/route";
import { getDb } from "@/db";
import { groupMembers, groups, identityLinks, identityProviders, logs, users } from "@/db/schema";
import { authenticateToken } from "@/lib/server/auth/authenticate";
import { getAuthOptions } from "@/lib/server/auth/next-auth-options";
import { syncDirectory } from "@/lib/server/identity/sync-directory";
import { createAdmin, createTestGroup, createTestUser, PASSWORD, reloadUser } from "../../helpers/factories";
import { onOwnDatabase } from "../../helpers/own-database";
import { call, expectError } from "../../helpers/http";
import { groupDn, type Slapd, startSlapd, userDn } from "../../helpers/slapd";
import { createProvider, ldapBody, removeProviders, setProviderEnabled, signIn } from "./identity-helpers";

let slapd: Slapd;
let admin: Awaited<ReturnType<typeof createAdmin>>;
let providerId = "";
// Directories made unreachable here would turn other files' unknown logins into 503s: a database of its own.
onOwnDatabase("coffre_ldap");

beforeAll(async () => {
  slapd = await startSlapd();
  admin = await createAdmin();
  providerId = (await createProvider(admin.token, ldapBody(slapd))).id;
}, 60_000);
afterAll(async () => {
  await removeProviders();
  await slapd?.close();
});

const person = (i: 0 | 1 | 2) => slapd.people[i];

async function userByLogin(login: string) {
  const db = await getDb();
  const [user] = await db.select().from(users).where(sql`lower(${users.login}) = lower(${login})`);
  return user;
}

async function groupNamesOf(userId: number) {
  const db = await getDb();
  const rows = await db.select({ login: groups.login, ldap: groups.ldap }).from(groupMembers).innerJoin(groups, eq(groups.id, groupMembers.groupId)).where(eq(groupMembers.userId, userId));
  return rows.map((r) => r.login).sort();
}

describe("LDAP sign-in through POST /auth", () => {
  it("signs a directory person in, provisions the account with the mapped fields and the nested groups", async () => {
    const alice = person(0);
    expect(await userByLogin(alice.uid)).toBeUndefined();
    const res = await signIn(alice.uid, alice.password);
    expect(res.status, res.text).toBe(200);
    expect(typeof res.body.token).toBe("string");

    const user = await userByLogin(alice.uid);
    expect(user).toMatchObject({
      login: alice.uid,
      firstname: "Alice",
      lastname: "Martin",
      email: alice.mail,
      phone: "+33 1 23 45 67 89",
      organization: "Example Corp",
      language: "fr",
      ldap: true,
      active: true,
      role: 2,
      passwordHash: null,
    });
    expect(user.privateRootId).not.toBeNull();
    const db = await getDb();
    const session = await authenticateToken(db, res.body.token, "10.0.0.1");
    expect(session.user.id).toBe(user.id);
    // engineering directly, staff through engineering (nested); not sales.
    expect(await groupNamesOf(user.id)).toEqual([slapd.groups.engineering, slapd.groups.staff].sort());
    const made = await db.select().from(groups).where(inArray(groups.login, [slapd.groups.engineering, slapd.groups.staff]));
    expect(made.every((g) => g.ldap)).toBe(true);
    const [link] = await db.select().from(identityLinks).where(eq(identityLinks.userId, user.id));
    expect(link).toMatchObject({ providerId: Number(providerId), kind: "user", dn: userDn(alice.uid) });
    expect(link.externalId).toMatch(/^[0-9a-f-]{36}$/);
    const [created] = await db.select().from(logs).where(and(eq(logs.objectType, "user"), eq(logs.objectId, String(user.id)), eq(logs.type, "ADMLLOG_INSERT")));
    expect(created.message).toContain("from identity provider");

    // A second sign-in finds the same account.
    const again = await signIn(alice.uid.toUpperCase(), alice.password);
    expect(again.status).toBe(200);
    expect((await db.select().from(users).where(sql`lower(${users.login}) = lower(${alice.uid})`)).length).toBe(1);
  });

  it("refuses a wrong directory password with 401 and logs the failure", async () => {
    const bob = person(1);
    const res = await signIn(bob.uid, "Not-bobs-password");
    expectError(res, 401, "unauthorized");
    expect(res.body.error).toBe("Wrong login or password");
    expect(await userByLogin(bob.uid)).toBeUndefined();
    const unknown = await signIn(`${slapd.prefix}nobody`, "whatever-1");
    expectError(unknown, 401, "unauthorized");
  });

  it("counts a directory login typed with spaces, in capitals or another Unicode form as one login", async () => {
    const bob = person(1);
    const ip = "10.88.251.7";
    const typed = [` ${bob.uid}`, `${bob.uid}\u00a0`, bob.uid.toUpperCase(), `\t${bob.uid}\u200b`, `  ${bob.uid}  `];
    for (const login of typed) {
      const res = await call(authRoute.POST, { method: "POST", body: { user: login, password: "Not-bobs-password" }, headers: { "x-forwarded-for": ip } });
      expectError(res, 401, "unauthorized");
    }
    const blocked = await call(authRoute.POST, { method: "POST", body: { user: bob.uid, password: bob.password }, headers: { "x-forwarded-for": ip } });
    expectError(blocked, 429, "too_many_requests");
    // From elsewhere, the login with spaces around it is the same directory person, and one account.
    expect((await signIn(` ${bob.uid}\u3000`, bob.password)).status).toBe(200);
    expect((await signIn(bob.uid, bob.password)).status).toBe(200);
    const db = await getDb();
    expect(await db.select({ login: users.login }).from(users).where(sql`lower(${users.login}) LIKE ${`%${bob.uid.toLowerCase()}%`}`)).toEqual([{ login: bob.uid }]);
  });

  it("escapes the login in the filter: wildcards and filter syntax match nobody", async () => {
    const alice = person(0);
    // Unescaped, each of these would select alice's entry (alone or first) and her password would bind.
    for (const login of [`${slapd.prefix}al*`, "*", `*)(uid=${alice.uid}`, `${alice.uid})(|(uid=*`, `*)(uid=*`, `${alice.uid}\\2a`]) {
      const res = await signIn(login, alice.password);
      expectError(res, 401, "unauthorized");
    }
    const db = await getDb();
    const odd = await db.select({ login: users.login }).from(users).where(sql`${users.login} LIKE '%*%' OR ${users.login} LIKE '%(%'`);
    expect(odd).toEqual([]);
  });

  it("updates the account and its directory groups at each sign-in; local memberships stay", async () => {
    const carol = person(2);
    expect((await signIn(carol.uid, carol.password)).status).toBe(200);
    const user = await userByLogin(carol.uid);
    expect(await groupNamesOf(user.id)).toEqual([slapd.groups.sales]);
    const local = await createTestGroup({ members: [user.id] });

    await slapd.modify(
      [
        `dn: ${userDn(carol.uid)}`,
        "changetype: modify",
        "replace: sn",
        "sn: Petit-Durand",
        "",
        `dn: ${groupDn(slapd.groups.sales)}`,
        "changetype: modify",
        "delete: member",
        `member: ${userDn(carol.uid)}`,
        "-",
        "add: member",
        `member: ${userDn(person(1).uid)}`,
        "",
        `dn: ${groupDn(slapd.groups.engineering)}`,
        "changetype: modify",
        "add: member",
        `member: ${userDn(carol.uid)}`,
        "",
      ].join("\n"),
    );
    expect((await signIn(carol.uid, carol.password)).status).toBe(200);
    expect((await reloadUser(user.id)).lastname).toBe("Petit-Durand");
    expect(await groupNamesOf(user.id)).toEqual([local.login, slapd.groups.engineering, slapd.groups.staff].sort());
  });

  it("keeps directory fields read-only: PUT /user and PUT /account refuse them, groups may change", async () => {
    const alice = await userByLogin(person(0).uid);
    const byAdmin = await call(userRoute.PUT, { method: "PUT", token: admin.token, params: { userId: String(alice.id) }, body: { firstname: "Mallory", email: "mallory@example.test" } });
    expectError(byAdmin, 403, "forbidden");
    expect(byAdmin.body.error).toContain("firstname");
    expect(byAdmin.body.details.fields).toEqual(["firstname", "email"]);
    const password = await call(userRoute.PUT, { method: "PUT", token: admin.token, params: { userId: String(alice.id) }, body: { password: "Some-new-pass-1" } });
    expectError(password, 403, "forbidden");
    expect(password.body.details.fields).toEqual(["password"]);

    const local = await createTestGroup();
    const current = (await groupNamesOf(alice.id)).length;
    const db = await getDb();
    const directoryGroupIds = (await db.select({ id: groups.id }).from(groups).where(inArray(groups.login, [slapd.groups.engineering, slapd.groups.staff]))).map((g) => g.id);
    const joined = await call(userRoute.PUT, { method: "PUT", token: admin.token, params: { userId: String(alice.id) }, body: { groups: [...directoryGroupIds, local.id] } });
    expect(joined.status, joined.text).toBe(200);
    expect((await groupNamesOf(alice.id)).length).toBe(current + 1);

    const signedIn = await signIn(person(0).uid, person(0).password);
    const own = await call(accountRoute.PUT, { method: "PUT", token: signedIn.body.token, body: { lastname: "Changed", language: "en" } });
    expectError(own, 403, "forbidden");
    expect(own.body.details.fields).toEqual(["lastname", "language"]);
    expect(await reloadUser(alice.id)).toMatchObject({ firstname: "Alice", lastname: "Martin", language: "fr", email: person(0).mail });
  });

  it("never lets a directory entry take over a local account of the same login", async () => {
    const db = await getDb();
    const extra = { uid: `${slapd.prefix}dave`, givenName: "Dave", sn: "Local", mail: `${slapd.prefix}dave@example.test`, password: "Dave-directory-1" };
    await slapd.add([`dn: ${userDn(extra.uid)}`, "objectClass: inetOrgPerson", `uid: ${extra.uid}`, `cn: Dave`, `sn: ${extra.sn}`, `givenName: Dave`, `mail: ${extra.mail}`, `userPassword: ${extra.password}`, ""].join("\n"));
    const localDave = await createTestUser({ login: extra.uid });
    expectError(await signIn(extra.uid, extra.password), 401, "unauthorized");
    expect((await signIn(extra.uid, PASSWORD)).status).toBe(200);
    const after = await reloadUser(localDave.id);
    expect(after.ldap).toBe(false);
    expect(await db.select().from(identityLinks).where(eq(identityLinks.userId, localDave.id))).toEqual([]);
  });

  it("answers 503 for directory accounts while the directory is down; local accounts still sign in", async () => {
    const alice = person(0);
    expect((await signIn(alice.uid, alice.password)).status).toBe(200);
    await slapd.stop();
    try {
      const res = await signIn(alice.uid, alice.password);
      expectError(res, 503, "service_unavailable");
      expect(res.body.error).toMatch(/cannot be reached/);
      expect(res.text).not.toContain("127.0.0.1");
      expect(res.headers.get("retry-after")).toBe("30");
      const local = await signIn(admin.login, PASSWORD);
      expect(local.status, local.text).toBe(200);
      // The web sign-in tells the outage apart from a wrong password.
      const credentials = (await getAuthOptions()).providers[0] as unknown as { options: CredentialsConfig };
      const req = { headers: { "x-forwarded-for": "10.99.2.2" }, body: {}, query: {}, method: "POST" };
      await expect(credentials.options.authorize({ login: alice.uid, password: alice.password } as never, req)).rejects.toThrow(/^directory_unavailable$/);
    } finally {
      await slapd.start();
    }
    expect((await signIn(alice.uid, alice.password)).status).toBe(200);
    const db = await getDb();
    const [log] = await db
      .select()
      .from(logs)
      .where(and(eq(logs.type, "ADMLLOG_LOGIN_FAILED"), eq(logs.object, alice.uid), sql`${logs.message} LIKE '%impossible%'`));
    expect(log.message).toMatch(/ECONNREFUSED|Cannot reach/);
  });

  it("refuses directory accounts when their provider is disabled", async () => {
    const alice = person(0);
    await setProviderEnabled(providerId, false);
    try {
      expectError(await signIn(alice.uid, alice.password), 401, "unauthorized");
    } finally {
      await setProviderEnabled(providerId, true);
    }
    expect((await signIn(alice.uid, alice.password)).status).toBe(200);
  });
});

describe("LDAP sign-in on the web (next-auth credentials provider)", () => {
  it("opens a web session for a directory person", async () => {
    const bob = person(1);
    const options = await getAuthOptions();
    const credentials = options.providers[0] as unknown as { options: CredentialsConfig };
    const req = { headers: { "x-forwarded-for": "10.99.1.1", "user-agent": "vitest" }, body: {}, query: {}, method: "POST" };
    const signedIn = (await credentials.options.authorize({ login: bob.uid, password: bob.password } as never, req)) as { id: string; sessionToken: string };
    const user = await userByLogin(bob.uid);
    expect(signedIn.id).toBe(String(user.id));
    const session = await authenticateToken(await getDb(), signedIn.sessionToken, "10.99.1.1");
    expect(session.user.ldap).toBe(true);
    await expect(credentials.options.authorize({ login: bob.uid, password: "wrong-password" } as never, req)).rejects.toThrow(/^wrong_credentials$/);
  });
});

describe("matching by email, login suffix, and TLS", () => {
  let tls: Slapd;
  beforeAll(async () => {
    tls = await startSlapd({ tls: true });
  }, 60_000);
  afterAll(async () => {
    await removeProviders();
    await tls?.close();
  });

  it("finds people by their email address over ldaps:// with the configured CA", async () => {
    await createProvider(admin.token, ldapBody(tls, { servers: [tls.ldapsUrl], ca: tls.caPem, matching: 1 }));
    const bob = tls.people[1];
    expectError(await signIn(bob.uid, bob.password), 401, "unauthorized");
    const res = await signIn(bob.mail, bob.password);
    expect(res.status, res.text).toBe(200);
    expect(await userByLogin(bob.uid)).toMatchObject({ email: bob.mail, ldap: true });
    // Once provisioned, the account's own login works too.
    expect((await signIn(bob.uid, bob.password)).status).toBe(200);
  });

  it("refuses an email address that names several entries", async () => {
    const bob = tls.people[1];
    await tls.add([`dn: ${userDn(`${tls.prefix}bob2`)}`, "objectClass: inetOrgPerson", `uid: ${tls.prefix}bob2`, "cn: Bob Two", "sn: Two", `mail: ${tls.people[2].mail}`, "userPassword: Bob-two-pass-1", ""].join("\n"));
    await tls.add([`dn: ${userDn(`${tls.prefix}bob3`)}`, "objectClass: inetOrgPerson", `uid: ${tls.prefix}bob3`, "cn: Bob Three", "sn: Three", `mail: ${tls.people[2].mail}`, "userPassword: Bob-two-pass-1", ""].join("\n"));
    expectError(await signIn(tls.people[2].mail, "Bob-two-pass-1"), 401, "unauthorized");
    expect(await userByLogin(`${tls.prefix}bob2`)).toBeUndefined();
    expect(bob.mail).not.toBe(tls.people[2].mail);
  });

  it("never links a directory entry to an existing account by its login, logs the refusal, leaves the account as it was", async () => {
    const alice = tls.people[0];
    const local = await createAdmin({ login: alice.uid, email: `${tls.prefix}admin@corp.example` });
    // Found by its address, the entry's login is an administrator's: the directory's password opens nothing.
    expectError(await signIn(alice.mail, alice.password), 401, "unauthorized");
    const after = await reloadUser(local.id);
    expect(after).toMatchObject({ email: local.email, ldap: false, passwordHash: local.passwordHash, firstname: local.firstname });
    const db = await getDb();
    expect(await db.select().from(identityLinks).where(eq(identityLinks.userId, local.id))).toEqual([]);
    const [refusal] = await db.select().from(logs).where(and(eq(logs.objectType, "user"), eq(logs.objectId, String(local.id)), eq(logs.type, "ADMLLOG_LOGIN_FAILED")));
    expect(refusal.message).toMatch(/^Refused to link .+ \(ldap\): a matching login is not proof of the same person$/);
    // The account's own password still opens it.
    expect((await signIn(alice.uid, PASSWORD)).status).toBe(200);
  });

  it("strips the login suffix and signs in over StartTLS", async () => {
    await createProvider(admin.token, ldapBody(tls, { suffix: "corp.example", starttls: true, ca: tls.caPem }));
    const carol = tls.people[2];
    const res = await signIn(`${carol.uid}@corp.example`, carol.password);
    expect(res.status, res.text).toBe(200);
    expect((await userByLogin(carol.uid)).ldap).toBe(true);
  });
});

describe("groups from a user attribute (ugmap.utg), nested through the same attribute on groups", () => {
  let utg: Slapd;
  beforeAll(async () => {
    utg = await startSlapd();
    // alice lists engineering; engineering lists staff. businessCategory is allowed on both entries.
    await utg.modify(
      [
        `dn: ${userDn(utg.people[0].uid)}`,
        "changetype: modify",
        "add: businessCategory",
        `businessCategory: ${utg.groups.engineering}`,
        "",
        `dn: ${groupDn(utg.groups.engineering)}`,
        "changetype: modify",
        "add: businessCategory",
        `businessCategory: ${utg.groups.staff}`,
        "",
      ].join("\n"),
    );
  }, 60_000);
  afterAll(async () => {
    await removeProviders();
    await utg?.close();
  });

  it("maps the same groups at sign-in (asked entry by entry) and in the synchronisation (computed from listings)", async () => {
    const mapping = { "ugmap.gtu.in": "", "ugmap.utg.in": "businessCategory", "ugmap.utg.out": "cn" };
    const nested = await createProvider(admin.token, ldapBody(utg, mapping));
    const alice = utg.people[0];
    expect((await signIn(alice.uid, alice.password)).status).toBe(200);
    const user = await userByLogin(alice.uid);
    expect(await groupNamesOf(user.id)).toEqual([utg.groups.engineering, utg.groups.staff].sort());

    const db = await getDb();
    const [row] = await db.select().from(identityProviders).where(eq(identityProviders.id, Number(nested.id)));
    const result = await syncDirectory(db, row);
    expect(result).toMatchObject({ users_created: 2, memberships_added: 0, memberships_removed: 0, conflicts: [] });
    expect(await groupNamesOf(user.id)).toEqual([utg.groups.engineering, utg.groups.staff].sort());

    // Without recursive, only the group the entry names.
    await db.update(identityProviders).set({ settings: { ...(row.settings as object), recursive: false } }).where(eq(identityProviders.id, row.id));
    expect((await signIn(alice.uid, alice.password)).status).toBe(200);
    expect(await groupNamesOf(user.id)).toEqual([utg.groups.engineering]);
  });
});
