import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as accountRoute from "@/app/api/account/route";
import * as confirmResetRoute from "@/app/api/reset_password/[token]/route";
import * as userRoute from "@/app/api/user/[userId]/route";
import { getDb } from "@/db";
import { emails, loginThrottles, oauth2AccessTokens, oauth2Apps, oauth2Grants, oauth2RefreshTokens, passwordResets, sessions } from "@/db/schema";
import { hashToken, newToken } from "@/lib/server/auth/tokens";
import { createAdmin, createTestUser, createToken, PASSWORD, type TestUser } from "../../helpers/factories";
import { call } from "../../helpers/http";

// Issue 25, finding 8, from the account's side: whichever way a password changes, the account's
// OAuth2 grants (and with them every refresh token) end with its sessions, the second step's lock
// is lifted and the owner is told. The OAuth2 flow itself is in tests/api/oauth2/password-change.
beforeAll(() => getDb(), 120_000);

const NEW_PASSWORD = "An0ther-password!";

/** A grant of `user` to a fresh application, with an access token (a sessions row) and a refresh token. */
async function stageGrant(user: TestUser) {
  const db = await getDb();
  const [app] = await db.insert(oauth2Apps).values({ clientId: newToken(8), secretHash: "x", name: "Sync", type: 0, scope: "files.read offline", callbackUris: ["https://client.example/cb"] }).returning();
  const [grant] = await db.insert(oauth2Grants).values({ handle: newToken(8), appId: app.id, userId: user.id, scope: "files.read offline", flow: "code" }).returning();
  const [access] = await db.insert(sessions).values({ tokenHash: hashToken(newToken()), userId: user.id, kind: "oauth:web", scope: "files.read offline" }).returning();
  await db.insert(oauth2AccessTokens).values({ sessionId: access.id, grantId: grant.id });
  await db.insert(oauth2RefreshTokens).values({ tokenHash: hashToken(newToken()), grantId: grant.id, sessionId: access.id });
  // The second step locked by someone who held the old password.
  await db.insert(loginThrottles).values({ key: `mfa:subject:${user.id}`, failures: 20, blockedUntil: new Date(Date.now() + 3600_000) });
  return { grantId: grant.id, accessId: access.id };
}

async function leftOf(user: TestUser, grantId: number) {
  const db = await getDb();
  return {
    grants: (await db.select().from(oauth2Grants).where(eq(oauth2Grants.userId, user.id))).length,
    refreshTokens: (await db.select().from(oauth2RefreshTokens).where(eq(oauth2RefreshTokens.grantId, grantId))).length,
    sessions: (await db.select().from(sessions).where(eq(sessions.userId, user.id))).map((s) => s.id),
    lock: (await db.select().from(loginThrottles).where(eq(loginThrottles.key, `mfa:subject:${user.id}`))).length,
    notices: (await db.select().from(emails).where(eq(emails.to, user.email))).filter((m) => /password was changed/.test(m.object)).length,
  };
}

describe("a new password ends the account's OAuth2 grants with its sessions", () => {
  it("PUT /account (its owner): all but the session it came from", async () => {
    const user = await createTestUser();
    const { grantId } = await stageGrant(user);
    const other = await createToken(user.id);
    expect((await call(accountRoute.PUT, { method: "PUT", token: user.token, body: { old_password: PASSWORD, new_password: NEW_PASSWORD } })).status).toBe(200);
    const left = await leftOf(user, grantId);
    expect(left).toMatchObject({ grants: 0, refreshTokens: 0, lock: 0, notices: 1 });
    expect(left.sessions).toHaveLength(1);
    const db = await getDb();
    expect(await db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(other)))).toHaveLength(0);
  });

  it("PUT /user/(id) (an administrator): everything", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    const { grantId } = await stageGrant(user);
    expect((await call(userRoute.PUT, { method: "PUT", token: admin.token, params: { userId: String(user.id) }, body: { password: NEW_PASSWORD } })).status).toBe(200);
    expect(await leftOf(user, grantId)).toEqual({ grants: 0, refreshTokens: 0, sessions: [], lock: 0, notices: 1 });
  });

  it("PUT /user/(id)?alert=1 mails the new password and no second notice", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    const { grantId } = await stageGrant(user);
    expect((await call(userRoute.PUT, { method: "PUT", token: admin.token, params: { userId: String(user.id) }, query: { alert: 1 }, body: { password: NEW_PASSWORD } })).status).toBe(200);
    expect(await leftOf(user, grantId)).toMatchObject({ grants: 0, sessions: [], notices: 1 });
  });

  it("POST /reset_password/(token) (a mailed link): everything", async () => {
    const user = await createTestUser();
    const { grantId } = await stageGrant(user);
    const link = newToken();
    await (await getDb()).insert(passwordResets).values({ tokenHash: hashToken(link), userId: user.id, expiresAt: new Date(Date.now() + 600_000) });
    expect((await call(confirmResetRoute.POST, { method: "POST", params: { token: link }, body: { password: NEW_PASSWORD } })).status).toBe(204);
    expect(await leftOf(user, grantId)).toEqual({ grants: 0, refreshTokens: 0, sessions: [], lock: 0, notices: 1 });
  });

  it("deactivating the account ends its grants too", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    const { grantId } = await stageGrant(user);
    expect((await call(userRoute.PUT, { method: "PUT", token: admin.token, params: { userId: String(user.id) }, body: { active: false } })).status).toBe(200);
    expect(await leftOf(user, grantId)).toMatchObject({ grants: 0, refreshTokens: 0, sessions: [] });
  });
});
