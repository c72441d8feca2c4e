import { eq } from "drizzle-orm";
import type { CredentialsConfig } from "next-auth/providers/credentials";
import { beforeAll, describe, expect, it } from "vitest";
import * as signInOptionsRoute from "@/app/api/auth/mfa/webauthn/options/route";
import { getDb } from "@/db";
import { sessions } from "@/db/schema";
import { getAuthOptions } from "@/lib/server/auth/next-auth-options";
import { hashToken } from "@/lib/server/auth/tokens";
import { createTestUser, PASSWORD } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { enrolKey, enrolOtp, totp } from "./mfa-helpers";

// vitest sets BASE_URL to "/" (environment.md, trap 8): this worker runs as a server without one,
// so the relying party comes from the request's Host, as it does for the route calls.
delete process.env.BASE_URL;
const randomIp = () => `10.78.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

async function authorize(credentials: Record<string, string>, ip = randomIp()) {
  const options = await getAuthOptions();
  const provider = options.providers[0] as unknown as { options: CredentialsConfig };
  const req = { headers: { "x-forwarded-for": ip, "user-agent": "vitest", host: "coffre.test" }, body: credentials, query: {}, method: "POST" };
  return provider.options.authorize(credentials as never, req);
}

/** The first step's failure, as the sign-in form receives it in next-auth's error parameter. */
async function firstWebStep(login: string) {
  const error = await authorize({ login, password: PASSWORD }).then(
    () => null,
    (e: Error) => e.message,
  );
  const [reason, mfaToken, methods] = String(error).split(":");
  expect(reason).toBe("mfa_required");
  return { mfaToken, methods: methods.split(",") };
}

// The embedded database opens (and migrates) on first use: not inside the first test's time.
beforeAll(() => getDb(), 120_000);

describe("web sign-in with a second factor (next-auth credentials)", () => {
  it("asks for the second step, then opens a web session with the code", async () => {
    const user = await createTestUser();
    const { secret } = await enrolOtp(user);
    const step = await firstWebStep(user.login);
    expect(step.methods).toEqual(["otp", "recovery"]);

    await expect(authorize({ mfa_token: step.mfaToken, method: "otp", code: "000000" === totp(secret, 1) ? "111111" : "000000" })).rejects.toThrow("wrong_code");
    const signedIn = (await authorize({ mfa_token: step.mfaToken, method: "otp", code: totp(secret, 1) })) as { id: string; sessionToken: string };
    expect(signedIn.id).toBe(String(user.id));
    const db = await getDb();
    const [row] = await db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(signedIn.sessionToken)));
    expect(row).toMatchObject({ userId: user.id, kind: "web" });
    await expect(authorize({ mfa_token: step.mfaToken, method: "otp", code: totp(secret, 2) })).rejects.toThrow("mfa_expired");
  });

  it("opens a web session with a security key", async () => {
    const user = await createTestUser();
    const { key } = await enrolKey(user);
    const step = await firstWebStep(user.login);
    expect(step.methods).toContain("webauthn");
    const options = await call(signInOptionsRoute.POST, { method: "POST", body: { mfa_token: step.mfaToken } });
    const response = JSON.stringify(key.authenticate(options.body));
    const signedIn = (await authorize({ mfa_token: step.mfaToken, method: "webauthn", response })) as { id: string };
    expect(signedIn.id).toBe(String(user.id));
  });

  it("refuses malformed second steps", async () => {
    await expect(authorize({ mfa_token: "short", method: "otp", code: "123456" })).rejects.toThrow("wrong_code");
    await expect(authorize({ mfa_token: "q".repeat(43), method: "webauthn", response: "{not json" })).rejects.toThrow("wrong_code");
    await expect(authorize({ mfa_token: "q".repeat(43), method: "otp", code: "123456" })).rejects.toThrow("mfa_expired");
  });
});
