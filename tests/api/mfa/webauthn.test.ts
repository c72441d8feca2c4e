import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as accountRoute from "@/app/api/account/route";
import * as mfaRoute from "@/app/api/account/mfa/route";
import * as webauthnRoute from "@/app/api/account/mfa/webauthn/route";
import * as keyRoute from "@/app/api/account/mfa/webauthn/[credentialId]/route";
import * as optionsRoute from "@/app/api/account/mfa/webauthn/options/route";
import * as completeRoute from "@/app/api/auth/mfa/route";
import * as signInOptionsRoute from "@/app/api/auth/mfa/webauthn/options/route";
import { getDb } from "@/db";
import { mfaWebauthnCredentials } from "@/db/schema";
import { createTestUser, latestLog, PASSWORD } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { enrolKey, enrolOtp, firstStep, ip, ORIGIN, signIn } from "./mfa-helpers";
import { SoftAuthenticator } from "./soft-authenticator";

const complete = (body: Record<string, unknown>, headers = ip()) => call(completeRoute.POST, { method: "POST", body, headers });
const signInOptions = (mfa_token: string) => call(signInOptionsRoute.POST, { method: "POST", body: { mfa_token } });

// The embedded database opens (and migrates) on first use: not inside the first test's time.
beforeAll(() => getDb(), 120_000);

describe("security keys (WebAuthn) registration", () => {
  it("gives options with a server-side challenge, stores the key under its name (201), lists it", async () => {
    const user = await createTestUser();
    const options = await call(optionsRoute.POST, { method: "POST", token: user.token, body: { password: PASSWORD } });
    expect(options.status, options.text).toBe(200);
    expect(options.body.rp).toMatchObject({ id: "coffre.test" });
    expect(options.body.user.name).toBe(user.login);
    // The user handle is random, never the account id.
    expect(options.body.user.id).not.toBe(String(user.id));
    expect(options.body.challenge).toMatch(/^[\w-]{20,}$/);

    const key = new SoftAuthenticator(ORIGIN);
    const created = await call(webauthnRoute.POST, { method: "POST", token: user.token, body: { name: "Blue key", response: key.register(options.body) } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: "Blue key", last_used: null });
    expect(created.body.recovery_codes).toHaveLength(10);
    const db = await getDb();
    const [row] = await db.select().from(mfaWebauthnCredentials).where(eq(mfaWebauthnCredentials.id, created.body.id));
    expect(row).toMatchObject({ userId: user.id, credentialId: key.id, transports: ["usb"], name: "Blue key" });

    const state = (await call(mfaRoute.GET, { token: user.token })).body;
    expect(state.webauthn).toEqual([{ id: created.body.id, name: "Blue key", creation: expect.any(String), last_used: null }]);
    expect((await call(accountRoute.GET, { token: user.token })).body).toMatchObject({ has_mfa_yubikey: true, can_mfa_yubikey: true });
    expect((await latestLog("user", user.id, "ADMLLOG_UPDATE"))?.message).toMatch(/security key "Blue key" added/);

    // The challenge is single use, and the same key is not added twice.
    expectError(await call(webauthnRoute.POST, { method: "POST", token: user.token, body: { name: "Again", response: key.register(options.body) } }), 409, "conflict");
    const next = await call(optionsRoute.POST, { method: "POST", token: user.token, body: { password: PASSWORD } });
    expect(next.body.excludeCredentials).toEqual([expect.objectContaining({ id: key.id })]);
  });

  it("refuses an answer for another origin, another relying party or a stale challenge", async () => {
    const user = await createTestUser();
    const options = (await call(optionsRoute.POST, { method: "POST", token: user.token, body: { password: PASSWORD } })).body;
    const key = new SoftAuthenticator(ORIGIN);
    const bad = [
      key.register(options, { origin: "https://evil.example" }),
      key.register(options, { rpId: "evil.example" }),
      key.register({ ...options, challenge: "c3RhbGUtY2hhbGxlbmdlLXN0YWxlLWNoYWxsZW5nZQ" }),
    ];
    for (const response of bad) {
      expectError(await call(webauthnRoute.POST, { method: "POST", token: user.token, body: { name: "Bad", response } }), 400, "invalid_request");
    }
    // Without asking for options first there is nothing to answer.
    const other = await createTestUser();
    expectError(await call(webauthnRoute.POST, { method: "POST", token: other.token, body: { name: "Key", response: key.register(options) } }), 409, "conflict");
  });

  it("refuses bad names and bodies", async () => {
    const user = await createTestUser();
    const options = (await call(optionsRoute.POST, { method: "POST", token: user.token, body: { password: PASSWORD } })).body;
    const response = new SoftAuthenticator(ORIGIN).register(options);
    for (const name of ["", "x".repeat(101), "evil\u202Ename"]) {
      expectError(await call(webauthnRoute.POST, { method: "POST", token: user.token, body: { name, response } }), 400, "invalid_request");
    }
    expectError(await call(webauthnRoute.POST, { method: "POST", token: user.token, body: { name: "ok" } }), 400, "invalid_request");
  });

  it("removes only the caller's own keys", async () => {
    const alice = await createTestUser();
    const bob = await createTestUser();
    const { id } = await enrolKey(alice);
    expectError(await call(keyRoute.DELETE, { method: "DELETE", token: bob.token, params: { credentialId: String(id) }, body: { password: PASSWORD } }), 404, "not_found");
    expect((await call(mfaRoute.GET, { token: alice.token })).body.webauthn).toHaveLength(1);
    expect((await call(keyRoute.DELETE, { method: "DELETE", token: alice.token, params: { credentialId: String(id) }, body: { password: PASSWORD } })).status).toBe(204);
    const after = (await call(mfaRoute.GET, { token: alice.token })).body;
    expect(after).toMatchObject({ webauthn: [], recovery_codes_left: 0 });
    expect((await signIn(alice)).status).toBe(200);
    expectError(await call(keyRoute.DELETE, { method: "DELETE", token: alice.token, params: { credentialId: "abc" } }), 400, "invalid_request");
  });

  it("needs a session", async () => {
    await expectAuthRequired(optionsRoute.POST, { method: "POST" });
    await expectAuthRequired(webauthnRoute.POST, { method: "POST", body: { name: "k", response: {} } });
    await expectAuthRequired(keyRoute.DELETE, { method: "DELETE", params: { credentialId: "1" } });
  });
});

describe("signing in with a security key", () => {
  it("signs the sign-in's challenge and opens the session; the counter moves on", async () => {
    const user = await createTestUser();
    const { key, id } = await enrolKey(user);
    const step = await firstStep(user);
    expect(step.methods).toEqual(["webauthn", "recovery"]);
    const options = await signInOptions(step.mfa_token);
    expect(options.status, options.text).toBe(200);
    expect(options.body).toMatchObject({ rpId: "coffre.test", allowCredentials: [expect.objectContaining({ id: key.id, transports: ["usb"] })] });

    const ok = await complete({ mfa_token: step.mfa_token, method: "webauthn", response: key.authenticate(options.body) });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.token).toMatch(/^[\w-]{40,}$/);
    const db = await getDb();
    const [row] = await db.select().from(mfaWebauthnCredentials).where(eq(mfaWebauthnCredentials.id, id));
    expect(row.counter).toBe(key.counter);
    expect(row.lastUsedAt).not.toBeNull();
  });

  it("refuses a replayed signature, another origin, a cloned key's counter and another account's key", async () => {
    const user = await createTestUser();
    const { key } = await enrolKey(user);
    const step = await firstStep(user);
    const options = (await signInOptions(step.mfa_token)).body;
    const answer = key.authenticate(options);
    expect((await complete({ mfa_token: step.mfa_token, method: "webauthn", response: answer })).status).toBe(200);

    // The same signature for a new sign-in: its challenge is another one.
    const second = await firstStep(user);
    const secondOptions = (await signInOptions(second.mfa_token)).body;
    expectError(await complete({ mfa_token: second.mfa_token, method: "webauthn", response: answer }), 401, "unauthorized");
    expectError(await complete({ mfa_token: second.mfa_token, method: "webauthn", response: key.authenticate(secondOptions, { origin: "https://evil.example" }) }), 401, "unauthorized");
    expectError(await complete({ mfa_token: second.mfa_token, method: "webauthn", response: key.authenticate(secondOptions, { counter: 1 }) }), 401, "unauthorized");

    const other = await createTestUser();
    const { key: otherKey } = await enrolKey(other);
    expectError(await complete({ mfa_token: second.mfa_token, method: "webauthn", response: otherKey.authenticate(secondOptions) }), 401, "unauthorized");
    // A signature before any options were asked: no challenge to match.
    const third = await firstStep(user);
    expectError(await complete({ mfa_token: third.mfa_token, method: "webauthn", response: key.authenticate(secondOptions) }), 401, "unauthorized");
  });

  it("offers no key options to an account without keys", async () => {
    const user = await createTestUser();
    await enrolOtp(user);
    expectError(await signInOptions((await firstStep(user)).mfa_token), 409, "conflict");
    expectError(await signInOptions("z".repeat(43)), 401, "unauthorized");
  });
});
