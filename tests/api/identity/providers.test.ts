import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as oneRoute from "@/app/api/identity/provider/[providerId]/route";
import * as syncRoute from "@/app/api/identity/provider/[providerId]/sync/route";
import * as createRoute from "@/app/api/identity/provider/route";
import * as testRoute from "@/app/api/identity/provider/test/route";
import * as listRoute from "@/app/api/identity/providers/route";
import { getDb } from "@/db";
import { identityProviders } from "@/db/schema";
import { identityProviderResponse, testFailureResponse } from "@/lib/contracts/identity-providers";
import { decryptSecrets } from "@/lib/server/identity/secrets";
import { createAdmin, createTestUser, latestLog, unique } from "../../helpers/factories";
import { onOwnDatabase } from "../../helpers/own-database";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { type Slapd, startSlapd } from "../../helpers/slapd";
import { createProvider, ldapBody, removeProviders, trackProvider } from "./identity-helpers";

let slapd: Slapd;
// Directories made unreachable here would turn other files' unknown logins into 503s: a database of its own.
onOwnDatabase("coffre_idp");

beforeAll(async () => {
  slapd = await startSlapd({ tls: true });
}, 60_000);
afterAll(async () => {
  await removeProviders();
  await slapd?.close();
});

async function storedRow(id: string) {
  const db = await getDb();
  const [row] = await db.select().from(identityProviders).where(eq(identityProviders.id, Number(id)));
  return row;
}

const test = (token: string, body: unknown) => call(testRoute.POST, { method: "POST", token, body });
/** The outcome as an object, with the failure's reason (?details=1, what the console asks for). */
const details = (token: string, body: unknown) => call(testRoute.POST, { method: "POST", token, body, query: { details: 1 } });

describe("identity providers: create, read, list, update, delete", () => {
  it("creates an ldap provider, stores its password encrypted and never returns it", async () => {
    const admin = await createAdmin();
    const body = ldapBody(slapd, { "service.login": "uid", ugmap: { gtu: { in: "member", out: "dn" } }, userFilter: "(objectClass=inetOrgPerson)" });
    const provider = await createProvider(admin.token, body);
    expect(provider).toMatchObject({
      name: body.name,
      type: "ldap",
      enable: true,
      is_authn: true,
      is_directory: true,
      is_sso: false,
      matching: 0,
      servers: [slapd.url],
      baseDN: slapd.baseDN,
      username: slapd.serviceDN,
      password: "********",
      has_password: true,
      recursive: true,
      "service.login": "uid",
      "ugmap.gtu.in": "member",
      "ugmap.gtu.out": "dn",
      status: "never_synced",
      last_sync: null,
    });

    const row = await storedRow(provider.id);
    expect(JSON.stringify(row.settings)).not.toContain(slapd.servicePassword);
    expect(row.secrets).toMatch(/^v1\./);
    expect(row.secrets).not.toContain(slapd.servicePassword);
    expect(await decryptSecrets(row.secrets)).toEqual({ password: slapd.servicePassword });

    const read = await call(oneRoute.GET, { token: admin.token, params: { providerId: provider.id } });
    expect(read.status).toBe(200);
    expect(identityProviderResponse.parse(read.body)).toEqual(provider);
    const list = await call(listRoute.GET, { token: admin.token, query: { nb_objects: 1000 } });
    expect(list.status).toBe(200);
    expect(list.body.nb_total_objects).toBeGreaterThanOrEqual(1);
    expect(list.body.objects.map((p: { id: string }) => p.id)).toContain(provider.id);
    for (const text of [read.text, list.text]) expect(text).not.toContain(slapd.servicePassword);

    const log = await latestLog("identity_provider", provider.id, "ADMLLOG_INSERT");
    expect(log.message).toContain(body.name);
    expect(log.message).not.toContain(slapd.servicePassword);
  });

  it("updates partially: an omitted or placeholder secret is kept, a new one replaces it, the type cannot change", async () => {
    const admin = await createAdmin();
    // Disabled: its credentials are changed and cleared below, and sign-ins of other test files try every enabled directory.
    const provider = await createProvider(admin.token, ldapBody(slapd, { enable: false }));
    const renamed = await call(oneRoute.PUT, { method: "PUT", token: admin.token, params: { providerId: provider.id }, body: { name: `${provider.name} (renamed)`, recursive: false } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ name: `${provider.name} (renamed)`, recursive: false, password: "********", baseDN: slapd.baseDN });
    expect(await decryptSecrets((await storedRow(provider.id)).secrets)).toEqual({ password: slapd.servicePassword });

    const placeholder = await call(oneRoute.PATCH, { method: "PATCH", token: admin.token, params: { providerId: provider.id }, body: { ...renamed.body, password: "********" } });
    expect(placeholder.status, placeholder.text).toBe(200);
    expect(await decryptSecrets((await storedRow(provider.id)).secrets)).toEqual({ password: slapd.servicePassword });

    const changed = await call(oneRoute.PUT, { method: "PUT", token: admin.token, params: { providerId: provider.id }, body: { password: "another-secret" } });
    expect(changed.status).toBe(200);
    expect(changed.text).not.toContain("another-secret");
    expect(await decryptSecrets((await storedRow(provider.id)).secrets)).toEqual({ password: "another-secret" });
    const log = await latestLog("identity_provider", provider.id, "ADMLLOG_UPDATE");
    expect(log.message).toContain("password");
    expect(log.message).not.toContain("another-secret");

    const cleared = await call(oneRoute.PUT, { method: "PUT", token: admin.token, params: { providerId: provider.id }, body: { password: null, username: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.password).toBeUndefined();
    expect(cleared.body.has_password).toBe(false);
    expect(cleared.body.username).toBeUndefined();

    const retyped = await call(oneRoute.PUT, { method: "PUT", token: admin.token, params: { providerId: provider.id }, body: { type: "oidc" } });
    expectError(retyped, 400, "invalid_request");
    expect(retyped.body.details[0].path).toBe("type");
    const bad = await call(oneRoute.PUT, { method: "PUT", token: admin.token, params: { providerId: provider.id }, body: { servers: "http://127.0.0.1:1" } });
    expectError(bad, 400, "invalid_request");
    expect(bad.body.details.map((d: { path: string }) => d.path)).toContain("servers.0");
    expect((await storedRow(provider.id)).settings).toMatchObject({ servers: [slapd.url] });
  });

  it("never sends a stored secret to a server it was not typed for", async () => {
    const admin = await createAdmin();
    const provider = await createProvider(admin.token, ldapBody(slapd, { enable: false }));
    const params = { providerId: provider.id };
    const moved = await call(oneRoute.PUT, { method: "PUT", token: admin.token, params, body: { servers: ["ldap://127.0.0.1:1", slapd.url] } });
    expectError(moved, 400, "invalid_request");
    expect(moved.body.details).toEqual([{ path: "password", message: expect.stringContaining("Type it again") }]);
    const placeholder = await call(oneRoute.PUT, { method: "PUT", token: admin.token, params, body: { starttls: true, ca: slapd.caPem, password: "********" } });
    expectError(placeholder, 400, "invalid_request");
    expect((await storedRow(provider.id)).settings).toMatchObject({ servers: [slapd.url] });
    // A test by id towards another server does not borrow the stored password either.
    const elsewhere = await details(admin.token, { ...provider, servers: [slapd.ldapsUrl], ca: slapd.caPem });
    expect(elsewhere.body).toMatchObject({ result: false, code: "bind_failed" });
    // Retyped, the change goes through; a form sending starttls: false where nothing was set is no move.
    const retyped = await call(oneRoute.PUT, { method: "PUT", token: admin.token, params, body: { servers: ["ldap://127.0.0.1:1", slapd.url], password: slapd.servicePassword } });
    expect(retyped.status, retyped.text).toBe(200);
    const same = await call(oneRoute.PUT, { method: "PUT", token: admin.token, params, body: { starttls: false, ca: "", name: `${provider.name} (same)` } });
    expect(same.status, same.text).toBe(200);
    expect((await test(admin.token, { ...same.body, timeout: 1000 })).body).toBe(true);
  });

  it("deletes a provider (204, then 404) and logs it", async () => {
    const admin = await createAdmin();
    const provider = await createProvider(admin.token, ldapBody(slapd));
    const res = await call(oneRoute.DELETE, { method: "DELETE", token: admin.token, params: { providerId: provider.id } });
    expect(res.status).toBe(204);
    expectError(await call(oneRoute.GET, { token: admin.token, params: { providerId: provider.id } }), 404, "not_found");
    expectError(await call(oneRoute.DELETE, { method: "DELETE", token: admin.token, params: { providerId: provider.id } }), 404, "not_found");
    expect((await latestLog("identity_provider", provider.id, "ADMLLOG_DELETE")).message).toContain(provider.name);
  });

  it("validates the fields of each type", async () => {
    const admin = await createAdmin();
    const post = (body: unknown) => call(createRoute.POST, { method: "POST", token: admin.token, body });
    const fields = async (body: unknown) => {
      const res = await post(body);
      expectError(res, 400, "invalid_request");
      return res.body.details.map((d: { path: string }) => d.path);
    };
    expect(await fields({ type: "ldap", name: "x", servers: [slapd.url] })).toContain("baseDN");
    expect(await fields({ type: "ldap", name: "", baseDN: "dc=x", servers: [] })).toEqual(expect.arrayContaining(["name", "servers"]));
    expect(await fields({ ...ldapBody(slapd), userFilter: "objectClass=person" })).toContain("userFilter");
    expect(await fields({ ...ldapBody(slapd), userFilter: "(&(objectClass=person)" })).toContain("userFilter");
    expect(await fields({ ...ldapBody(slapd), "service.email": "mail)(uid=*" })).toContain("service.email");
    expect(await fields({ ...ldapBody(slapd), name: "bad\u202ename" })).toContain("name");
    expect(await fields({ ...ldapBody(slapd), ca: "not a certificate" })).toContain("ca");
    expect(await fields({ type: "kerberos", name: "x" })).toContain("type");
    expect(await fields({ type: "oidc", name: "x", discovery: "https://id.example.test" })).toContain("client_id");
    expect(await fields({ type: "oidc", name: "x", client_id: "c", discovery: "http://id.example.test" })).toContain("discovery");
    expect(await fields({ type: "saml2", name: "x" })).toContain("discovery");
    expect(await fields({ type: "ms-graph", name: "x", client_id: "c" })).toContain("tenant");
    expectError(await call(createRoute.POST, { method: "POST", token: admin.token, rawBody: "{nope", headers: { "content-type": "application/json" } }), 400, "invalid_json");

    const graph = await createProvider(admin.token, { type: "ms-graph", name: unique("Graph "), tenant: "contoso.onmicrosoft.com", client_id: "app-id", client_secret: "graph-secret" });
    expect(graph).toMatchObject({ type: "ms-graph", tenant: "contoso.onmicrosoft.com", client_secret: "********", has_client_secret: true, is_directory: true, is_authn: false });
    const oidc = await createProvider(admin.token, { type: "oidc", name: unique("OIDC "), client_id: "c", client_secret: "s3cret", discovery: "https://id.example.test", purgeTime: 30 });
    expect(oidc).toMatchObject({ type: "oidc", is_sso: true, is_directory: false, client_secret: "********", purgeTime: 30 });
    const saml = await createProvider(admin.token, { type: "saml2", name: unique("SAML "), discovery: "https://idp.example.test/metadata", provisioning: true });
    expect(saml).toMatchObject({ type: "saml2", is_sso: true, provisioning: true });
    for (const p of [graph, oidc]) expect(JSON.stringify(p)).not.toMatch(/graph-secret|s3cret/);

    const taken = await post({ ...ldapBody(slapd), name: graph.name.toUpperCase() });
    expectError(taken, 409, "conflict");
  });

  it("is for administrators only: 401 without a token, 403 for users and managers", async () => {
    const admin = await createAdmin();
    const provider = await createProvider(admin.token, ldapBody(slapd));
    const params = { providerId: provider.id };
    const calls = [
      [listRoute.GET, { method: "GET" }],
      [createRoute.POST, { method: "POST", body: ldapBody(slapd) }],
      [testRoute.POST, { method: "POST", body: ldapBody(slapd) }],
      [oneRoute.GET, { method: "GET", params }],
      [oneRoute.PUT, { method: "PUT", params, body: { name: "taken over" } }],
      [oneRoute.DELETE, { method: "DELETE", params }],
      [syncRoute.POST, { method: "POST", params }],
    ] as const;
    const user = await createTestUser();
    const manager = await createTestUser({ role: 4 });
    for (const [handler, options] of calls) {
      await expectAuthRequired(handler, options);
      for (const who of [user, manager]) {
        const res = await call(handler, { ...options, token: who.token });
        expectError(res, 403, "forbidden");
        expect(res.text).not.toContain(slapd.servicePassword);
      }
    }
    const after = await call(oneRoute.GET, { token: admin.token, params });
    expect(after.body.name).toBe(provider.name);
  });
});

describe("POST /identity/provider/test", () => {
  it("answers true for a working configuration, without saving it", async () => {
    const admin = await createAdmin();
    const db = await getDb();
    const before = (await db.select({ id: identityProviders.id }).from(identityProviders)).length;
    const res = await test(admin.token, ldapBody(slapd));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toBe(true);
    expect((await db.select({ id: identityProviders.id }).from(identityProviders)).length).toBe(before);
  });

  it("answers false with the reason for a wrong bind password, an unreachable server, a wrong base DN", async () => {
    const admin = await createAdmin();
    const wrong = await details(admin.token, ldapBody(slapd, { password: "wrong" }));
    expect(wrong.status).toBe(200);
    const failure = testFailureResponse.parse(wrong.body);
    expect(failure).toMatchObject({ result: false, code: "bind_failed", details: { stage: "bind" } });
    expect(failure.details.reason).toMatch(/wrong username or password/);
    expect(wrong.text).not.toContain("wrong\"");

    const down = testFailureResponse.parse((await details(admin.token, ldapBody(slapd, { servers: ["ldap://127.0.0.1:1"], timeout: 1000 }))).body);
    expect(down).toMatchObject({ result: false, code: "unreachable" });
    expect(down.details.reason).toMatch(/127\.0\.0\.1:1/);

    const base = testFailureResponse.parse((await details(admin.token, ldapBody(slapd, { baseDN: "dc=nowhere,dc=test" }))).body);
    expect(base).toMatchObject({ result: false, code: "search_failed" });

    // The second server answers when the first does not.
    expect((await test(admin.token, ldapBody(slapd, { servers: ["ldap://127.0.0.1:1", slapd.url], timeout: 1000 }))).body).toBe(true);
    expectError(await test(admin.token, { type: "ldap", name: "x" }), 400, "invalid_request");
  });

  it("answers the contract's bare true or false, the failure's reason in headers; the object under ?details=1", async () => {
    const admin = await createAdmin();
    const failed = await test(admin.token, ldapBody(slapd, { password: "wrong" }));
    expect(failed.status).toBe(200);
    expect(failed.headers.get("content-type")).toMatch(/application\/json/);
    expect(failed.body).toBe(false);
    expect(failed.text).toBe("false");
    expect(failed.headers.get("x-coffre-test-code")).toBe("bind_failed");
    expect(failed.headers.get("x-coffre-test-reason")).toMatch(/wrong username or password/);
    const ok = await test(admin.token, ldapBody(slapd));
    expect(ok.text).toBe("true");
    expect(ok.headers.get("x-coffre-test-reason")).toBeNull();
    expect((await details(admin.token, ldapBody(slapd))).body).toEqual({ result: true });
    expect((await details(admin.token, ldapBody(slapd, { password: "wrong" }))).body).toMatchObject({ result: false, code: "bind_failed", details: { stage: "bind" } });
  });

  it("tests an edited form with the stored secret when given the provider id", async () => {
    const admin = await createAdmin();
    const provider = await createProvider(admin.token, ldapBody(slapd));
    const form = { ...provider, password: "********" };
    expect((await test(admin.token, form)).body).toBe(true);
    const withoutPassword: Record<string, unknown> = { ...form };
    delete withoutPassword.password;
    expect((await test(admin.token, withoutPassword)).body).toBe(true);
    // Without the id the placeholder is the password itself, and the directory refuses it.
    const anonymous: Record<string, unknown> = { ...form };
    delete anonymous.id;
    expect((await details(admin.token, anonymous)).body).toMatchObject({ result: false, code: "bind_failed" });
    expectError(await test(admin.token, { ...form, id: "999999" }), 404, "not_found");
  });

  it("checks TLS: ldaps:// and StartTLS with the configured CA, refused without it", async () => {
    const admin = await createAdmin();
    expect((await test(admin.token, ldapBody(slapd, { servers: [slapd.ldapsUrl], ca: slapd.caPem }))).body).toBe(true);
    expect((await test(admin.token, ldapBody(slapd, { starttls: true, ca: slapd.caPem }))).body).toBe(true);
    const untrusted = testFailureResponse.parse((await details(admin.token, ldapBody(slapd, { servers: [slapd.ldapsUrl] }))).body);
    expect(untrusted).toMatchObject({ result: false, code: "unreachable" });
    expect(untrusted.details.reason).toMatch(/certificate/i);
    const startTls = testFailureResponse.parse((await details(admin.token, ldapBody(slapd, { starttls: true }))).body);
    expect(startTls).toMatchObject({ result: false, code: "unreachable", details: { stage: "tls" } });
  });
});

describe("Microsoft Graph settings, tested against a local stand-in for the token and Graph endpoints", () => {
  let server: http.Server;
  let base = "";
  const seen: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        seen.push(`${req.method} ${req.url}`);
        const json = (status: number, value: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
        if (req.method === "POST" && req.url === "/contoso.onmicrosoft.com/oauth2/v2.0/token") {
          const form = new URLSearchParams(body);
          if (form.get("grant_type") !== "client_credentials" || form.get("scope") !== `${base}/graph/.default`) return json(400, { error: "invalid_request" });
          if (form.get("client_id") !== "app-id" || form.get("client_secret") !== "right-secret") {
            return json(401, { error: "invalid_client", error_description: "AADSTS7000215: Invalid client secret provided.\r\nTrace ID: 1" });
          }
          return json(200, { token_type: "Bearer", expires_in: 3599, access_token: "graph-token" });
        }
        if (req.method === "GET" && req.url?.startsWith("/graph/v1.0/organization")) {
          if (req.headers.authorization !== "Bearer graph-token") return json(401, { error: { code: "InvalidAuthenticationToken" } });
          return json(200, { value: [{ id: "org", displayName: "Contoso" }] });
        }
        json(404, { error: "not found" });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const graphBody = (secret: string) => ({ type: "ms-graph", name: unique("Graph "), tenant: "contoso.onmicrosoft.com", client_id: "app-id", client_secret: secret, authority: base, graph_url: `${base}/graph` });

  it("answers true when the token endpoint issues a token that reads the organization", async () => {
    const admin = await createAdmin();
    seen.length = 0;
    const res = await test(admin.token, graphBody("right-secret"));
    expect(res.body).toBe(true);
    expect(seen).toEqual(["POST /contoso.onmicrosoft.com/oauth2/v2.0/token", "GET /graph/v1.0/organization?$select=id,displayName"]);
  });

  it("answers false with the token endpoint's reason for a wrong secret, and when nothing answers", async () => {
    const admin = await createAdmin();
    const wrong = testFailureResponse.parse((await details(admin.token, graphBody("wrong-secret"))).body);
    expect(wrong).toMatchObject({ result: false, code: "token_refused" });
    expect(wrong.details.reason).toContain("AADSTS7000215: Invalid client secret provided.");
    expect(JSON.stringify(wrong)).not.toContain("wrong-secret");
    const down = testFailureResponse.parse((await details(admin.token, { ...graphBody("right-secret"), authority: "http://127.0.0.1:1" })).body);
    expect(down).toMatchObject({ result: false, code: "unreachable" });
  });

  it("stores the settings and tests the stored secret by id", async () => {
    const admin = await createAdmin();
    const provider = await createProvider(admin.token, graphBody("right-secret"));
    trackProvider(provider.id);
    expect(provider).toMatchObject({ client_secret: "********", authority: base, graph_url: `${base}/graph` });
    expect((await test(admin.token, { ...provider, client_secret: "********" })).body).toBe(true);
    const sync = await call(syncRoute.POST, { method: "POST", token: admin.token, params: { providerId: provider.id } });
    expectError(sync, 400, "invalid_request");
  });
});
