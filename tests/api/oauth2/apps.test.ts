import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as appsRoute from "@/app/api/oauth2/apps/route";
import * as appRoute from "@/app/api/oauth2/app/route";
import * as oneAppRoute from "@/app/api/oauth2/app/[clientId]/route";
import * as resetRoute from "@/app/api/oauth2/app/[clientId]/reset/route";
import * as adminRevokeRoute from "@/app/api/oauth2/app/[clientId]/revoke/route";
import * as appTokensRoute from "@/app/api/oauth2/app/[clientId]/tokens/route";
import * as userRevokeRoute from "@/app/api/oauth2/user/[token]/revoke/route";
import * as userTokensRoute from "@/app/api/oauth2/user/tokens/route";
import * as accountRoute from "@/app/api/account/route";
import { getDb } from "@/db";
import { oauth2Apps, oauth2Grants, logs } from "@/db/schema";
import { appResponse, grantResponse } from "@/lib/contracts/oauth2";
import { createAdmin, createTestUser, type TestUser } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired, expectRefusedFor } from "../../helpers/security";
import { basic, CALLBACK, consent, createApp, pkcePair, postForm, startAuthorizationServer, webSessionCookie } from "./oauth2-helpers";

let server: Awaited<ReturnType<typeof startAuthorizationServer>>;
let admin: TestUser;
let user: TestUser;

beforeAll(async () => {
  server = await startAuthorizationServer();
  admin = await createAdmin();
  user = await createTestUser();
});
afterAll(() => server.close());

const at = (clientId: string) => ({ params: { clientId }, path: `/api/oauth2/app/${clientId}` });

/** A token of a type 1 application by client credentials (acting as its creator). */
async function clientCredentials(clientId: string, secret: string, scope?: string) {
  return postForm(`${server.url}/oauth2/token`, { grant_type: "client_credentials", ...(scope ? { scope } : {}) }, { authorization: basic(clientId, secret) });
}

/** `person` authorises a type 0 application through consent and a PKCE code exchange. */
async function authorise(person: TestUser, app: { client_id: string; client_secret: string }, scope = "files.read") {
  const { verifier, challenge } = pkcePair();
  const answer = await consent(server.url, await webSessionCookie(person.id), { client_id: app.client_id, redirect_uri: CALLBACK, scope, code_challenge: challenge, code_challenge_method: "S256", state: "s1" });
  const code = new URL(answer.body.redirect_to).searchParams.get("code")!;
  const token = await postForm(`${server.url}/oauth2/token`, { grant_type: "authorization_code", code, redirect_uri: CALLBACK, code_verifier: verifier, client_id: app.client_id, client_secret: app.client_secret });
  expect(token.status, token.text).toBe(200);
  return token.body as { access_token: string; refresh_token: string };
}

const readAccount = (token: string) => call(accountRoute.GET, { path: "/api/account", token });

describe("POST /oauth2/app", () => {
  it("creates an application, shows the secret once and keeps only its SHA-256", async () => {
    const res = await call(appRoute.POST, {
      method: "POST",
      path: "/api/oauth2/app",
      token: admin.token,
      body: { name: "Mail connector", description: "Files from mail", editor: "Acme", editor_url: "https://acme.example", type: 0, kind: "mail_connector", scope: "files.read  files.read offline", callbacks_uris: [CALLBACK, "http://localhost:8123/cb", "http://127.0.0.1/cb"] },
    });
    expect(res.status, res.text).toBe(201);
    const body = appResponse.parse(res.body);
    expect(body).toMatchObject({ name: "Mail connector", type: 0, kind: "mail_connector", scope: "files.read offline", owner_id: String(admin.id), editor: "Acme" });
    expect(body.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await (await getDb()).select().from(oauth2Apps).where(eq(oauth2Apps.clientId, body.client_id));
    expect(row.secretHash).toBe(createHash("sha256").update(body.client_secret!).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(body.client_secret);

    const read = await call(oneAppRoute.GET, { ...at(body.client_id), token: admin.token });
    expect(read.status).toBe(200);
    expect(read.body.client_secret).toBeUndefined();
    expect(read.body.callbacks_uris).toEqual([CALLBACK, "http://localhost:8123/cb", "http://127.0.0.1/cb"]);
    const [log] = await (await getDb()).select().from(logs).where(eq(logs.objectId, body.client_id));
    expect(log.type).toBe("ADMLLOG_INSERT");
  });

  it("refuses bad bodies with the fields named", async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ scope: "files.read teleport" }, "scope"],
      [{ scope: "" }, "scope"],
      [{ callbacks_uris: ["http://client.example/cb"] }, "callbacks_uris.0"],
      [{ callbacks_uris: ["ftp://client.example/cb"] }, "callbacks_uris.0"],
      [{ callbacks_uris: ["https://client.example/cb#frag"] }, "callbacks_uris.0"],
      [{ callbacks_uris: ["/relative"] }, "callbacks_uris.0"],
      [{ callbacks_uris: [] }, "callbacks_uris"],
      [{ type: 2 }, "type"],
      [{ name: "" }, "name"],
      [{ name: "evil\u202Eexe.pdf" }, "name"],
      [{ editor: "Acme\u0000" }, "editor"],
      [{ kind: "desktop" }, "kind"],
      [{ editor_url: "javascript:alert(1)" }, "editor_url"],
    ];
    for (const [patch, field] of bad) {
      const res = await call(appRoute.POST, { method: "POST", path: "/api/oauth2/app", token: admin.token, body: { name: "X", type: 0, scope: "files.read", callbacks_uris: [CALLBACK], ...patch } });
      expectError(res, 400, "invalid_request");
      const paths: string[] = res.body.details.map((d: { path: string }) => d.path.replace(/^body\./, ""));
      expect(paths, JSON.stringify(patch)).toContain(field);
    }
    // A type 1 application needs no callback.
    const server2server = await call(appRoute.POST, { method: "POST", path: "/api/oauth2/app", token: admin.token, body: { name: "Backup", type: 1, scope: "all" } });
    expect(server2server.status).toBe(201);
    expect(server2server.body.callbacks_uris).toEqual([]);
  });

  it("is for administrators only", async () => {
    const body = { name: "X", type: 1, scope: "all" };
    await expectAuthRequired(appRoute.POST, { method: "POST", body });
    await expectRefusedFor(user.token, appRoute.POST, { method: "POST", body });
    const manager = await createTestUser({ role: 4 });
    await expectRefusedFor(manager.token, appRoute.POST, { method: "POST", body });
  });
});

describe("GET /oauth2/apps, GET/PUT/DELETE /oauth2/app/(clientId)", () => {
  it("lists applications in the envelope, without secrets", async () => {
    const app = await createApp(admin.token, { name: "AAA listed" });
    const res = await call(appsRoute.GET, { path: "/api/oauth2/apps", token: admin.token, query: { nb_objects: 1000 } });
    expect(res.status).toBe(200);
    expect(res.body.nb_total_objects).toBeGreaterThanOrEqual(1);
    const listed = res.body.objects.find((a: { client_id: string }) => a.client_id === app.client_id);
    expect(appResponse.parse(listed).client_secret).toBeUndefined();
    await expectAuthRequired(appsRoute.GET, { path: "/api/oauth2/apps" });
    await expectRefusedFor(user.token, appsRoute.GET, { path: "/api/oauth2/apps" });
  });

  it("updates partially, validates, and answers 404 for an unknown application", async () => {
    const app = await createApp(admin.token);
    const res = await call(oneAppRoute.PUT, { ...at(app.client_id), method: "PUT", token: admin.token, body: { name: "Renamed", scope: "files.read", editor: null } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: "Renamed", scope: "files.read", editor: null, editor_url: "https://example.com", callbacks_uris: [CALLBACK] });
    expectError(await call(oneAppRoute.PUT, { ...at(app.client_id), method: "PUT", token: admin.token, body: { callbacks_uris: [] } }), 400, "invalid_request");
    expectError(await call(oneAppRoute.PUT, { ...at(app.client_id), method: "PUT", token: admin.token, body: { scope: "root" } }), 400, "invalid_request");
    expectError(await call(oneAppRoute.GET, { ...at("nope"), token: admin.token }), 404, "not_found");
    expectError(await call(oneAppRoute.PUT, { ...at("nope"), method: "PUT", token: admin.token, body: { name: "x" } }), 404, "not_found");
    await expectRefusedFor(user.token, oneAppRoute.GET, at(app.client_id));
    await expectRefusedFor(user.token, oneAppRoute.PUT, { ...at(app.client_id), method: "PUT", body: { name: "mine now" } });
    await expectAuthRequired(oneAppRoute.GET, at(app.client_id));
    expect((await call(oneAppRoute.GET, { ...at(app.client_id), token: admin.token })).body.name).toBe("Renamed");
  });

  it("deletes an application and ends its tokens at once", async () => {
    const app = await createApp(admin.token, { type: 1, scope: "account.read", callbacks_uris: [] });
    const token = await clientCredentials(app.client_id, app.client_secret);
    expect(token.status, token.text).toBe(200);
    expect((await readAccount(token.body.access_token)).status).toBe(200);

    await expectRefusedFor(user.token, oneAppRoute.DELETE, { ...at(app.client_id), method: "DELETE" });
    await expectAuthRequired(oneAppRoute.DELETE, { ...at(app.client_id), method: "DELETE" });
    const res = await call(oneAppRoute.DELETE, { ...at(app.client_id), method: "DELETE", token: admin.token });
    expect(res.status).toBe(204);
    expectError(await readAccount(token.body.access_token), 401, "unauthorized");
    expectError(await call(oneAppRoute.GET, { ...at(app.client_id), token: admin.token }), 404);
    expect((await clientCredentials(app.client_id, app.client_secret)).body.error).toBe("invalid_client");
  });
});

describe("POST /oauth2/app/(clientId)/reset", () => {
  it("issues a new secret once, refuses the old one and ends every token", async () => {
    const app = await createApp(admin.token);
    const issued = await authorise(user, app);
    expect((await call(accountRoute.GET, { path: "/api/account", token: issued.access_token })).status).toBe(403); // files.read only

    await expectRefusedFor(user.token, resetRoute.POST, { ...at(app.client_id), method: "POST" });
    await expectAuthRequired(resetRoute.POST, { ...at(app.client_id), method: "POST" });
    const res = await call(resetRoute.POST, { ...at(app.client_id), method: "POST", token: admin.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.client_secret).not.toBe(app.client_secret);

    expectError(await readAccount(issued.access_token), 401, "unauthorized");
    const refreshOld = await postForm(`${server.url}/oauth2/token`, { grant_type: "refresh_token", refresh_token: issued.refresh_token }, { authorization: basic(app.client_id, app.client_secret) });
    expect(refreshOld.status).toBe(401);
    expect(refreshOld.body.error).toBe("invalid_client");
    const refreshNew = await postForm(`${server.url}/oauth2/token`, { grant_type: "refresh_token", refresh_token: issued.refresh_token }, { authorization: basic(app.client_id, res.body.client_secret) });
    expect(refreshNew.status).toBe(400);
    expect(refreshNew.body.error).toBe("invalid_grant");
    // The new secret works for a new authorisation.
    await authorise(user, { client_id: app.client_id, client_secret: res.body.client_secret });
    expectError(await call(resetRoute.POST, { ...at("nope"), method: "POST", token: admin.token }), 404);
  });
});

describe("tokens: GET /oauth2/app/(clientId)/tokens, DELETE /oauth2/app/(token)/revoke, GET /oauth2/user/tokens, DELETE /oauth2/user/(token)/revoke", () => {
  it("lists who authorised an application and lets an administrator revoke any of them", async () => {
    const app = await createApp(admin.token);
    const alice = await createTestUser();
    const bob = await createTestUser();
    const aliceTokens = await authorise(alice, app);
    await authorise(bob, app, "files.readwrite offline");

    const res = await call(appTokensRoute.GET, { ...at(app.client_id), path: `/api/oauth2/app/${app.client_id}/tokens`, token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.nb_total_objects).toBe(2);
    const grants = res.body.objects.map((g: unknown) => grantResponse.parse(g));
    const aliceGrant = grants.find((g: { user_id: string }) => g.user_id === String(alice.id))!;
    const bobGrant = grants.find((g: { user_id: string }) => g.user_id === String(bob.id))!;
    expect(aliceGrant).toMatchObject({ client_id: app.client_id, application: "Sync tool", scope: "files.read" });
    expect(new Date(aliceGrant.expiration!).getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
    expect(bobGrant).toMatchObject({ scope: "files.readwrite offline", expiration: null });
    await expectRefusedFor(user.token, appTokensRoute.GET, at(app.client_id));
    await expectAuthRequired(appTokensRoute.GET, at(app.client_id));

    await expectRefusedFor(alice.token, adminRevokeRoute.DELETE, { params: { clientId: aliceGrant.token }, method: "DELETE" });
    const revoked = await call(adminRevokeRoute.DELETE, { params: { clientId: aliceGrant.token }, method: "DELETE", token: admin.token });
    expect(revoked.status).toBe(204);
    const folder = await call((await import("@/app/api/folders/route")).GET, { path: "/api/folders", token: aliceTokens.access_token });
    expectError(folder, 401, "unauthorized");
    expectError(await call(adminRevokeRoute.DELETE, { params: { clientId: aliceGrant.token }, method: "DELETE", token: admin.token }), 404);
    const after = await call(appTokensRoute.GET, { ...at(app.client_id), token: admin.token });
    expect(after.body.objects.map((g: { user_id: string }) => g.user_id)).toEqual([String(bob.id)]);
  });

  it("shows users their own authorisations only, and lets them revoke those alone", async () => {
    const app = await createApp(admin.token, { name: "Phone app", editor: "Phone Co" });
    const carol = await createTestUser();
    const dave = await createTestUser();
    const carolTokens = await authorise(carol, app);
    await authorise(dave, app);

    const mine = await call(userTokensRoute.GET, { path: "/api/oauth2/user/tokens", token: carol.token });
    expect(mine.status).toBe(200);
    expect(mine.body.nb_total_objects).toBe(1);
    const grant = grantResponse.parse(mine.body.objects[0]);
    expect(grant).toMatchObject({ application: "Phone app", editor: "Phone Co", user_id: String(carol.id), scope: "files.read" });
    await expectAuthRequired(userTokensRoute.GET, { path: "/api/oauth2/user/tokens" });

    const daves = (await call(userTokensRoute.GET, { path: "/api/oauth2/user/tokens", token: dave.token })).body.objects[0].token;
    expectError(await call(userRevokeRoute.DELETE, { params: { token: daves }, method: "DELETE", token: carol.token }), 404, "not_found");
    await expectAuthRequired(userRevokeRoute.DELETE, { params: { token: grant.token }, method: "DELETE" });
    expect((await call(userRevokeRoute.DELETE, { params: { token: grant.token }, method: "DELETE", token: carol.token })).status).toBe(204);
    expectError(await readAccount(carolTokens.access_token), 401);
    const refresh = await postForm(`${server.url}/oauth2/token`, { grant_type: "refresh_token", refresh_token: carolTokens.refresh_token }, { authorization: basic(app.client_id, app.client_secret) });
    expect(refresh.body.error).toBe("invalid_grant");
    expect((await call(userTokensRoute.GET, { path: "/api/oauth2/user/tokens", token: carol.token })).body.nb_total_objects).toBe(0);
    expect((await call(userTokensRoute.GET, { path: "/api/oauth2/user/tokens", token: dave.token })).body.nb_total_objects).toBe(1);
    const [stillThere] = await (await getDb()).select().from(oauth2Grants).where(eq(oauth2Grants.handle, daves));
    expect(stillThere).toBeDefined();
  });
});
