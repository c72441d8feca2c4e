import { eq } from "drizzle-orm";
import type { AuthOptions } from "next-auth";
import { encode } from "next-auth/jwt";
import type { CredentialsConfig } from "next-auth/providers/credentials";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { sessions, users } from "@/db/schema";
import { authenticateToken } from "@/lib/server/auth/authenticate";
import { getAuthOptions } from "@/lib/server/auth/next-auth-options";
import { getAuthSecret } from "@/lib/server/auth/secret";
import { hashToken } from "@/lib/server/auth/tokens";
import { route } from "@/lib/server/http/route";
import { createTestUser, PASSWORD } from "../../helpers/factories";

const APP = "http://coffre.test";
// vitest sets BASE_URL to "/" (environment.md, trap 8), which the route factory's origin check cannot parse;
// this file's worker runs as a server started without BASE_URL.
delete process.env.BASE_URL;
const randomIp = () => `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

async function authorize(credentials: Record<string, string>, ip = randomIp()) {
  const options = await getAuthOptions();
  const provider = options.providers[0] as unknown as { options: CredentialsConfig };
  const req = { headers: { "x-forwarded-for": ip, "user-agent": "vitest" }, body: credentials, query: {}, method: "POST" };
  return provider.options.authorize(credentials as never, req);
}

/** The cookie next-auth sets after a sign-in, built with its own callbacks and encoder. */
async function sessionCookie(user: { id: string; name: string; sessionToken?: string }) {
  const options: AuthOptions = await getAuthOptions();
  const token = await options.callbacks!.jwt!({ token: { name: user.name, sub: user.id }, user, account: null, trigger: "signIn" });
  return `next-auth.session-token=${await encode({ token, secret: await getAuthSecret() })}`;
}

// A route like every other, to see what the factory makes of the web session cookie.
const whoAmI = route({}, ({ ctx }) => ({ id: ctx.actor.user.id }));
const change = route({}, () => undefined);
const ctx = { params: Promise.resolve({}) };

describe("web sign-in (next-auth credentials)", () => {
  it("opens a web session in the sessions table and returns its token", async () => {
    const user = await createTestUser({ firstname: "Ada", lastname: "Lovelace" });
    const signedIn = await authorize({ login: user.login, password: PASSWORD });
    expect(signedIn).toMatchObject({ id: String(user.id), name: "Ada Lovelace" });
    const sessionToken = (signedIn as { sessionToken: string }).sessionToken;
    expect(sessionToken).toMatch(/^[\w-]{40,}$/);

    const db = await getDb();
    const [row] = await db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(sessionToken)));
    expect(row).toMatchObject({ userId: user.id, kind: "web", userAgent: "vitest" });
    expect((await authenticateToken(db, sessionToken, "127.0.0.1")).user.id).toBe(user.id);
    const [after] = await db.select({ lastLogin: users.lastLogin }).from(users).where(eq(users.id, user.id));
    expect(after.lastLogin).not.toBeNull();
  });

  it("authenticates API routes with the cookie, and refuses cross-origin changes", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookie((await authorize({ login: user.login, password: PASSWORD })) as never);

    const read = await whoAmI(new Request(`${APP}/api/x`, { headers: { cookie, host: "coffre.test" } }), ctx);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({ id: user.id });

    const sameOrigin = await change(new Request(`${APP}/api/x`, { method: "POST", headers: { cookie, host: "coffre.test", origin: APP } }), ctx);
    expect(sameOrigin.status).toBe(204);
    const crossOrigin = await change(new Request(`${APP}/api/x`, { method: "POST", headers: { cookie, host: "coffre.test", origin: "https://evil.example" } }), ctx);
    expect(crossOrigin.status).toBe(403);
    const noOrigin = await change(new Request(`${APP}/api/x`, { method: "POST", headers: { cookie, host: "coffre.test" } }), ctx);
    expect(noOrigin.status).toBe(403);
  });

  it("tells the sign-in form why it failed", async () => {
    const user = await createTestUser();
    const inactive = await createTestUser({ active: false });
    const expired = await createTestUser({ expire: new Date(Date.now() - 1000) });
    await expect(authorize({ login: user.login, password: "wrong" })).rejects.toThrow(/^wrong_credentials$/);
    await expect(authorize({ login: "nobody-" + user.login, password: PASSWORD })).rejects.toThrow(/^wrong_credentials$/);
    await expect(authorize({ login: user.login, password: "" })).rejects.toThrow(/^wrong_credentials$/);
    await expect(authorize({ login: inactive.login, password: PASSWORD })).rejects.toThrow(/^account_inactive$/);
    await expect(authorize({ login: expired.login, password: PASSWORD })).rejects.toThrow(/^account_expired$/);
  });

  it("is throttled like POST /api/auth, with the delay for the form", async () => {
    const user = await createTestUser();
    const ip = randomIp();
    for (let i = 0; i < 5; i++) await expect(authorize({ login: user.login, password: "bad" }, ip)).rejects.toThrow("wrong_credentials");
    await expect(authorize({ login: user.login, password: PASSWORD }, ip)).rejects.toThrow(/^too_many_requests:\d+$/);
    // Another address is not blocked.
    await expect(authorize({ login: user.login, password: PASSWORD })).resolves.toMatchObject({ id: String(user.id) });
  });

  it("signing out deletes the sessions row, and a revoked row no longer authenticates", async () => {
    const user = await createTestUser();
    const signedIn = (await authorize({ login: user.login, password: PASSWORD })) as { id: string; name: string; sessionToken: string };
    const cookie = await sessionCookie(signedIn);
    const options = await getAuthOptions();
    await options.events!.signOut!({ token: { sessionToken: signedIn.sessionToken }, session: null as never });

    const db = await getDb();
    expect(await db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(signedIn.sessionToken)))).toHaveLength(0);
    const read = await whoAmI(new Request(`${APP}/api/x`, { headers: { cookie } }), ctx);
    expect(read.status).toBe(401);
  });

  it("ignores a cookie signed with another secret", async () => {
    const user = await createTestUser();
    const signedIn = (await authorize({ login: user.login, password: PASSWORD })) as { sessionToken: string };
    const forged = await encode({ token: { sessionToken: signedIn.sessionToken }, secret: "not-the-secret" });
    const read = await whoAmI(new Request(`${APP}/api/x`, { headers: { cookie: `next-auth.session-token=${forged}` } }), ctx);
    expect(read.status).toBe(401);
  });
});
