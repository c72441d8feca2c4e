import { and, desc, eq } from "drizzle-orm";
import type { CredentialsConfig } from "next-auth/providers/credentials";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as authRoute from "@/app/api/auth/route";
import { getDb } from "@/db";
import { connectionOptions, logs } from "@/db/schema";
import { getAuthOptions } from "@/lib/server/auth/next-auth-options";
import { davHandler } from "@/lib/server/dav/dav-handler";
import { createTestUser, PASSWORD, type TestUser } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { serveNode } from "../../helpers/node-server";

// Every password door (POST /auth, the web sign-in, WebDAV Basic) goes through one function that
// orders its checks: a throttle keyed on the normalised login, then the password, and only once
// the password is right, why the account may not sign in (issue 25, findings 15 and 21).

let dav: Awaited<ReturnType<typeof serveNode>>;
beforeAll(async () => {
  dav = await serveNode(davHandler);
});
afterAll(async () => {
  await dav.close();
});

let n = 0;
const freshIp = () => `10.77.${Math.floor(Math.random() * 250)}.${++n % 250}`;

const viaAuth = (user: string, password: string, ip = freshIp()) => call(authRoute.POST, { method: "POST", body: { user, password }, headers: { "x-forwarded-for": ip } });

async function viaDav(user: string, password: string, ip = freshIp()) {
  const res = await fetch(`${dav.url}/dav/`, {
    method: "PROPFIND",
    headers: { depth: "0", authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`, "x-forwarded-for": ip },
  });
  const text = await res.text();
  const json = res.headers.get("content-type")?.includes("json");
  return { status: res.status, body: json ? JSON.parse(text) : undefined, challenge: res.headers.get("www-authenticate") };
}

async function viaWeb(login: string, password: string, ip = freshIp()): Promise<string> {
  const credentials = (await getAuthOptions()).providers[0] as unknown as { options: CredentialsConfig };
  const req = { headers: { "x-forwarded-for": ip, "user-agent": "vitest" }, body: {}, query: {}, method: "POST" };
  try {
    await credentials.options.authorize({ login, password } as never, req);
    return "signed_in";
  } catch (error) {
    return (error as Error).message;
  }
}

async function lastLoginLog(userId: number) {
  const db = await getDb();
  const [row] = await db.select().from(logs).where(and(eq(logs.objectType, "user"), eq(logs.objectId, String(userId)))).orderBy(desc(logs.id)).limit(1);
  return row;
}

async function refusedAccounts() {
  const inactive = await createTestUser({ active: false });
  const expired = await createTestUser({ expire: new Date(Date.now() - 1000) });
  const elsewhere = await createTestUser();
  const db = await getDb();
  await db.insert(connectionOptions).values({ targetId: elsewhere.id, ips: ["192.0.2.0/24"] });
  return { inactive, expired, elsewhere };
}

describe("an account that may not sign in answers like a wrong password until the password is right", () => {
  it("POST /auth: the same 401 as an unknown login for a wrong password; the reason once it is right", async () => {
    const { inactive, expired, elsewhere } = await refusedAccounts();
    const unknown = await viaAuth(`nobody-${inactive.login}`, "Wrong-pass-1");
    expect(unknown.status).toBe(401);
    for (const user of [inactive, expired, elsewhere]) {
      const wrong = await viaAuth(user.login, "Wrong-pass-1");
      expect({ status: wrong.status, body: wrong.body }).toEqual({ status: unknown.status, body: unknown.body });
    }
    const right = async (user: TestUser) => (await viaAuth(user.login, PASSWORD)).body;
    expect(await right(inactive)).toMatchObject({ code: "unauthorized", details: { reason: "inactive" } });
    expect(await right(expired)).toMatchObject({ code: "unauthorized", details: { reason: "expired" } });
    expect(await right(elsewhere)).toMatchObject({ code: "forbidden", details: { reason: "ip_not_allowed" } });
    expect((await lastLoginLog(elsewhere.id))?.type).toBe("ADMLLOG_LOGIN_FAILED");
  });

  it("WebDAV Basic: the same 401 and challenge as an unknown login for a wrong password; the reason, logged, once it is right", async () => {
    const { inactive, expired, elsewhere } = await refusedAccounts();
    const unknown = await viaDav(`nobody-${inactive.login}`, "Wrong-pass-1");
    expect(unknown.status).toBe(401);
    expect(unknown.challenge).toMatch(/^Basic realm="Coffre"/);
    for (const user of [inactive, expired, elsewhere]) expect(await viaDav(user.login, "Wrong-pass-1")).toEqual(unknown);

    const rightInactive = await viaDav(inactive.login, PASSWORD);
    expect(rightInactive).toMatchObject({ status: 401, body: { code: "unauthorized", details: { reason: "inactive" } } });
    expect(rightInactive.challenge).toMatch(/^Basic realm="Coffre"/);
    expect((await viaDav(expired.login, PASSWORD)).body).toMatchObject({ details: { reason: "expired" } });
    expect(await viaDav(elsewhere.login, PASSWORD)).toMatchObject({ status: 403, body: { code: "forbidden", details: { reason: "ip_not_allowed" } } });
    for (const user of [inactive, elsewhere]) expect((await lastLoginLog(user.id))?.type).toBe("ADMLLOG_LOGIN_FAILED");
  });

  it("the web sign-in: wrong_credentials for a wrong password, the reason once it is right", async () => {
    const { inactive, expired, elsewhere } = await refusedAccounts();
    for (const user of [inactive, expired, elsewhere]) expect(await viaWeb(user.login, "Wrong-pass-1")).toBe("wrong_credentials");
    expect(await viaWeb(inactive.login, PASSWORD)).toBe("account_inactive");
    expect(await viaWeb(expired.login, PASSWORD)).toBe("account_expired");
    expect(await viaWeb(elsewhere.login, PASSWORD)).toBe("connection_not_allowed");
  });
});

describe("one throttle per account, whatever spaces, case or Unicode form the login is typed in", () => {
  // Each form below would be a throttle key of its own if it were counted as typed.
  const variants = (login: string) => [` ${login}`, `${login} `, `\t${login}\u00a0`, login.toUpperCase(), `${login.slice(0, 2)}\u200b${login.slice(2)}`, `  ${login.toUpperCase()}  `];

  it("POST /auth: failures under several forms of one login add up to 429 for it", async () => {
    const user = await createTestUser();
    const ip = freshIp();
    for (const typed of variants(user.login).slice(0, 5)) expect((await viaAuth(typed, "Wrong-pass-1", ip)).status).toBe(401);
    const blocked = await viaAuth(user.login, PASSWORD, ip);
    expect(blocked.status, blocked.text).toBe(429);
    // Another address is not blocked, and the login typed with spaces around it signs in.
    const spaced = await viaAuth(`  ${user.login} `, PASSWORD);
    expect(spaced.status, spaced.text).toBe(200);
  });

  it("WebDAV Basic counts on the same key as POST /auth", async () => {
    const user = await createTestUser();
    const ip = freshIp();
    for (const typed of variants(user.login).slice(0, 3)) expect((await viaDav(typed, "Wrong-pass-1", ip)).status).toBe(401);
    for (const typed of variants(user.login).slice(3, 5)) expect((await viaAuth(typed, "Wrong-pass-1", ip)).status).toBe(401);
    expect((await viaDav(user.login, PASSWORD, ip)).status).toBe(429);
    expect((await viaAuth(`\u3000${user.login.toUpperCase()}`, PASSWORD, ip)).status).toBe(429);
  });
});
