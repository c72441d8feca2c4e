import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as providerItemRoute from "@/app/api/identity/provider/[providerId]/route";
import * as providerRoute from "@/app/api/identity/provider/route";
import * as loginRoute from "@/app/api/sso/[providerId]/login/route";
import * as providersRoute from "@/app/api/sso/providers/route";
import { getDb } from "@/db";
import { identityLinks, identityProviders, logs, sessions, ssoFlows, ssoReplays } from "@/db/schema";
import { ssoProvidersResponse } from "@/lib/contracts/sso";
import { purgeSsoAccountsJob } from "@/lib/server/sso/purge-sso-accounts";
import { createAdmin, createTestUser, reloadUser, unique } from "../../../helpers/factories";
import { startOidcProvider } from "../../../helpers/oidc-provider";
import { call, expectError } from "../../../helpers/http";
import { createSsoProvider } from "./helpers";
import { onOwnDatabase } from "../../../helpers/own-database";

const DAY_MS = 86_400_000;

// An enabled directory that cannot be reached turns every file's unknown logins into 503s: a database of its own.
onOwnDatabase("coffre_ssoprov");

describe("the SSO fields of identity providers (POST /api/identity/provider)", () => {
  it("stores oidc `scope`, saml2 `idp_initiated` and `emails_verified`, and sign-in uses them", async () => {
    const admin = await createAdmin();
    const op = await startOidcProvider();
    try {
      const oidc = await call(providerRoute.POST, { method: "POST", token: admin.token, body: { type: "oidc", name: unique("OIDC "), client_id: "app", client_secret: "a-secret", discovery: op.discoveryUrl, scope: "email groups" } });
      expect(oidc.status, oidc.text).toBe(201);
      expect(oidc.body).toMatchObject({ type: "oidc", scope: "email groups", client_secret: "********", is_sso: true });
      const login = await loginRoute.GET(new Request(`http://coffre.test/api/sso/${oidc.body.id}/login`), { params: Promise.resolve({ providerId: oidc.body.id }) });
      expect(new URL(login.headers.get("location")!).searchParams.get("scope")).toBe("openid email groups");
    } finally {
      await op.stop();
    }

    const saml = await call(providerRoute.POST, { method: "POST", token: admin.token, body: { type: "saml2", name: unique("SAML "), discovery: "https://idp.example/metadata", idp_initiated: true } });
    expect(saml.status, saml.text).toBe(201);
    const read = await call(providerItemRoute.GET, { token: admin.token, params: { providerId: saml.body.id } });
    expect(read.body).toMatchObject({ type: "saml2", idp_initiated: true });
    // Its addresses are not taken as verified unless the administrator says so (issue 25).
    expect(read.body.emails_verified).toBeUndefined();
    const verified = await call(providerItemRoute.PUT, { method: "PUT", token: admin.token, params: { providerId: saml.body.id }, body: { emails_verified: true } });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toMatchObject({ emails_verified: true, idp_initiated: true });

    const bad = await call(providerRoute.POST, { method: "POST", token: admin.token, body: { type: "oidc", name: unique("OIDC "), client_id: "app", discovery: "https://idp.example", scope: "openid \"quoted\"" } });
    expectError(bad, 400, "invalid_request");
  });
});

describe("GET /api/sso/providers (public)", () => {
  it("lists the enabled OpenID Connect and SAML providers with their name, type and sign-in address only", async () => {
    const oidc = await createSsoProvider({ type: "oidc", discovery: "https://idp.example", client_id: "app", client_secret: "s3cret-value" });
    const saml = await createSsoProvider({ type: "saml2", discovery: "https://idp.example/metadata" });
    const disabled = await createSsoProvider({ type: "oidc", discovery: "https://idp.example", client_id: "off", enable: false });
    const db = await getDb();
    const [ldap] = await db
      .insert(identityProviders)
      .values({ name: unique("ldap "), type: "ldap", settings: { baseDN: "dc=example", servers: ["ldap://127.0.0.1:1"] } })
      .returning();

    const res = await call(providersRoute.GET, { path: "/api/sso/providers", token: null });
    expect(res.status).toBe(200);
    const listed = ssoProvidersResponse.parse(res.body);
    const ids = listed.map((p) => p.id);
    expect(ids).toContain(String(oidc.id));
    expect(ids).toContain(String(saml.id));
    expect(ids).not.toContain(String(disabled.id));
    expect(ids).not.toContain(String(ldap.id));
    expect(listed.find((p) => p.id === String(oidc.id))).toEqual({ id: String(oidc.id), name: oidc.name, type: "oidc", login_url: `/api/sso/${oidc.id}/login` });
    expect(listed.find((p) => p.id === String(saml.id))).toEqual({ id: String(saml.id), name: saml.name, type: "saml2", login_url: `/api/sso/${saml.id}/login` });
    // Nothing of the configuration leaves: no client id, secret, discovery address.
    expect(res.text).not.toContain("s3cret-value");
    expect(res.text).not.toContain("idp.example");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("answers other methods with 405", async () => {
    expectError(await call(providersRoute.POST, { method: "POST", body: {} }), 405, "method_not_allowed");
  });
});

describe("job sso.purge (purgeTime)", () => {
  it("deactivates accounts not signed in through their provider for purgeTime days, and ends their sessions", async () => {
    const provider = await createSsoProvider({ type: "oidc", discovery: "https://idp.example", client_id: "app", purgeTime: 30 });
    const never = await createSsoProvider({ type: "saml2", discovery: "https://idp.example/md", purgeTime: 0 });
    // Accounts the provider signs in, without a password of their own.
    const stale = await createTestUser({ passwordHash: null });
    const recent = await createTestUser({ passwordHash: null });
    const staleElsewhere = await createTestUser({ passwordHash: null });
    const local = await createTestUser();
    // Connected to the provider, but signing in with its password: not the provider's to retire.
    const staleWithPassword = await createTestUser();
    const db = await getDb();
    await db.insert(identityLinks).values([
      { providerId: provider.id, kind: "user", userId: stale.id, externalId: unique("sub-"), seenAt: new Date(Date.now() - 31 * DAY_MS) },
      { providerId: provider.id, kind: "user", userId: staleWithPassword.id, externalId: unique("sub-"), seenAt: new Date(Date.now() - 31 * DAY_MS) },
      { providerId: provider.id, kind: "user", userId: recent.id, externalId: unique("sub-"), seenAt: new Date(Date.now() - 29 * DAY_MS) },
      { providerId: never.id, kind: "user", userId: staleElsewhere.id, externalId: unique("sub-"), seenAt: new Date(Date.now() - 400 * DAY_MS) },
    ]);

    await purgeSsoAccountsJob(db);
    expect((await reloadUser(stale.id)).active).toBe(false);
    expect(await db.select().from(sessions).where(eq(sessions.userId, stale.id))).toHaveLength(0);
    expect((await reloadUser(recent.id)).active).toBe(true);
    expect((await reloadUser(staleElsewhere.id)).active).toBe(true);
    expect((await reloadUser(local.id)).active).toBe(true);
    expect((await reloadUser(staleWithPassword.id)).active).toBe(true);
    expect(await db.select().from(sessions).where(eq(sessions.userId, recent.id))).toHaveLength(1);
    const [log] = await db.select().from(logs).where(and(eq(logs.objectType, "user"), eq(logs.objectId, String(stale.id)), eq(logs.type, "ADMLLOG_UPDATE")));
    expect(log.message).toBe(`Deactivated ${stale.login}: no sign-in with ${provider.name} for 30 days (purgeTime)`);
    expect(log.userName).toBe("system");

    // Safe to run again: nothing more to do, nothing logged twice.
    await purgeSsoAccountsJob(db);
    const again = await db.select().from(logs).where(and(eq(logs.objectType, "user"), eq(logs.objectId, String(stale.id)), eq(logs.type, "ADMLLOG_UPDATE")));
    expect(again).toHaveLength(1);
  });

  it("forgets unfinished sign-ins and assertion IDs once expired", async () => {
    const provider = await createSsoProvider({ type: "saml2", discovery: "https://idp.example/md" });
    const db = await getDb();
    const past = new Date(Date.now() - 1000);
    const future = new Date(Date.now() + 600_000);
    await db.insert(ssoFlows).values([
      { providerId: provider.id, protocol: "saml2", requestId: unique("_old"), expiresAt: past },
      { providerId: provider.id, protocol: "saml2", requestId: unique("_new"), expiresAt: future },
    ]);
    await db.insert(ssoReplays).values([
      { providerId: provider.id, assertionId: unique("_a"), expiresAt: past },
      { providerId: provider.id, assertionId: unique("_b"), expiresAt: future },
    ]);
    await purgeSsoAccountsJob(db);
    const flows = await db.select().from(ssoFlows).where(inArray(ssoFlows.providerId, [provider.id]));
    expect(flows.map((f) => f.requestId?.slice(0, 4))).toEqual(["_new"]);
    const replays = await db.select().from(ssoReplays).where(eq(ssoReplays.providerId, provider.id));
    expect(replays.map((r) => r.assertionId.slice(0, 2))).toEqual(["_b"]);
  });
});
