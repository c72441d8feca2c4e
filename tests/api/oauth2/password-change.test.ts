import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as accountRoute from "@/app/api/account/route";
import * as foldersRoute from "@/app/api/folders/route";
import * as userTokensRoute from "@/app/api/oauth2/user/tokens/route";
import * as confirmResetRoute from "@/app/api/reset_password/[token]/route";
import * as userRoute from "@/app/api/user/[userId]/route";
import { getDb } from "@/db";
import { emails, oauth2Grants, oauth2RefreshTokens, passwordResets } from "@/db/schema";
import { hashToken, newToken } from "@/lib/server/auth/tokens";
import { createAdmin, createTestUser, createToken, PASSWORD, type TestUser } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { basic, CALLBACK, consent, createApp, pkcePair, postForm, startAuthorizationServer, webSessionCookie } from "./oauth2-helpers";

// Issue 25, finding 8: OAuth2 refresh tokens survived a password change and both resets, so an
// application (or whoever stole its tokens) kept minting access tokens. Each of the three now ends
// every session (but the current one of a self-change) and every grant, and mails the owner; and a
// refresh asking for a scope beyond the grant is refused before the refresh token is spent.

let server: Awaited<ReturnType<typeof startAuthorizationServer>>;
let admin: TestUser;
let app: { client_id: string; client_secret: string };

beforeAll(async () => {
  server = await startAuthorizationServer();
  admin = await createAdmin();
  app = await createApp(admin.token, { scope: "files.readwrite offline" });
});
afterAll(() => server.close());

const NEW_PASSWORD = "An0ther-password!";
const auth = () => ({ authorization: basic(app.client_id, app.client_secret) });
const token = (fields: Record<string, string>) => postForm(`${server.url}/oauth2/token`, fields, auth());
const listRoots = (accessToken: string) => call(foldersRoute.GET, { path: "/api/folders", token: accessToken });

/** An offline grant of `user` to the application: its access and refresh tokens. */
async function grantOf(user: TestUser, scope = "files.readwrite offline") {
  const pkce = pkcePair();
  const answer = await consent(server.url, await webSessionCookie(user.id), { client_id: app.client_id, redirect_uri: CALLBACK, scope, code_challenge: pkce.challenge, code_challenge_method: "S256", state: "s" });
  expect(answer.status, answer.text).toBe(200);
  const code = new URL(answer.body.redirect_to).searchParams.get("code")!;
  const issued = await token({ grant_type: "authorization_code", code, code_verifier: pkce.verifier, redirect_uri: CALLBACK });
  expect(issued.status, issued.text).toBe(200);
  expect(issued.body.refresh_token).toEqual(expect.any(String));
  return issued.body as { access_token: string; refresh_token: string };
}

async function expectAllEnded(user: TestUser, issued: { access_token: string; refresh_token: string }) {
  const refresh = await token({ grant_type: "refresh_token", refresh_token: issued.refresh_token });
  expect([refresh.status, refresh.body.error]).toEqual([400, "invalid_grant"]);
  expectError(await listRoots(issued.access_token), 401);
  const db = await getDb();
  expect(await db.select().from(oauth2Grants).where(eq(oauth2Grants.userId, user.id))).toHaveLength(0);
}

async function noticesTo(user: TestUser) {
  const db = await getDb();
  return db.select().from(emails).where(and(eq(emails.to, user.email), like(emails.object, "%password was changed")));
}

describe("a new password ends every grant of the account", () => {
  it("changed by its owner: other sessions and every refresh token end, this session stays, the owner is mailed", async () => {
    const user = await createTestUser();
    const issued = await grantOf(user);
    const other = await createToken(user.id);
    const res = await call(accountRoute.PUT, { method: "PUT", token: user.token, body: { old_password: PASSWORD, new_password: NEW_PASSWORD } });
    expect(res.status, res.text).toBe(200);
    await expectAllEnded(user, issued);
    expectError(await listRoots(other), 401);
    expect((await listRoots(user.token)).status).toBe(200);
    const [notice] = await noticesTo(user);
    expect(notice.content).toContain("by you");
  });

  it("reset by an administrator: every session and every refresh token end, the owner is mailed", async () => {
    const user = await createTestUser();
    const issued = await grantOf(user);
    const res = await call(userRoute.PUT, { method: "PUT", token: admin.token, params: { userId: String(user.id) }, body: { password: NEW_PASSWORD } });
    expect(res.status, res.text).toBe(200);
    await expectAllEnded(user, issued);
    expectError(await listRoots(user.token), 401);
    expect((await call(foldersRoute.GET, { path: "/api/folders", token: admin.token })).status).toBe(200);
    expect(await noticesTo(user)).toHaveLength(1);
  });

  it("reset through a mailed link: every session and every refresh token end, the owner is mailed", async () => {
    const user = await createTestUser();
    const issued = await grantOf(user);
    const link = newToken();
    await (await getDb()).insert(passwordResets).values({ tokenHash: hashToken(link), userId: user.id, expiresAt: new Date(Date.now() + 600_000) });
    const res = await call(confirmResetRoute.POST, { method: "POST", params: { token: link }, body: { password: NEW_PASSWORD } });
    expect(res.status, res.text).toBe(204);
    await expectAllEnded(user, issued);
    expectError(await listRoots(user.token), 401);
    expect(await noticesTo(user)).toHaveLength(1);
  });

  it("lists no connected application afterwards", async () => {
    const user = await createTestUser();
    await grantOf(user);
    const session = await createToken(user.id);
    expect((await call(userTokensRoute.GET, { path: "/api/oauth2/user/tokens", token: session })).body.nb_total_objects).toBe(1);
    await call(accountRoute.PUT, { method: "PUT", token: session, body: { old_password: PASSWORD, new_password: NEW_PASSWORD } });
    expect((await call(userTokensRoute.GET, { path: "/api/oauth2/user/tokens", token: session })).body.nb_total_objects).toBe(0);
  });
});

describe("a refresh asking for more than the grant", () => {
  it("is refused before the refresh token is spent: the same token refreshes afterwards and the grant lives on", async () => {
    const user = await createTestUser();
    const issued = await grantOf(user, "files.read offline");
    for (const scope of ["files.read admin.read", "files.readwrite", "all", "files.read \"bad\""]) {
      const refused = await token({ grant_type: "refresh_token", refresh_token: issued.refresh_token, scope });
      expect([refused.status, refused.body.error], scope).toEqual([400, "invalid_scope"]);
    }
    const db = await getDb();
    const [row] = await db.select().from(oauth2RefreshTokens).where(eq(oauth2RefreshTokens.tokenHash, hashToken(issued.refresh_token)));
    expect(row.usedAt).toBeNull();
    expect((await listRoots(issued.access_token)).status).toBe(200);

    const refreshed = await token({ grant_type: "refresh_token", refresh_token: issued.refresh_token, scope: "files.read" });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect((await listRoots(refreshed.body.access_token)).status).toBe(200);
  });
});
