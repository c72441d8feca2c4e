import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as sessionRoute from "@/app/api/account/session/[sessionId]/route";
import * as sessionsRoute from "@/app/api/account/sessions/route";
import * as accountRoute from "@/app/api/account/route";
import * as authRoute from "@/app/api/auth/route";
import { getDb } from "@/db";
import { sessions } from "@/db/schema";
import { sessionResponse } from "@/lib/contracts/account-security";
import { createTestUser, createToken, PASSWORD } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { ip } from "../mfa/mfa-helpers";

// api.md, "Account security": the sessions list, ending one, ending all others (issue 29, item 9).
beforeAll(() => getDb(), 120_000);

const list = (token: string) => call(sessionsRoute.GET, { path: "/api/account/sessions", token });
const end = (token: string, id: number) => call(sessionRoute.DELETE, { method: "DELETE", path: `/api/account/session/${id}`, token, params: { sessionId: String(id) } });

async function signInApi(login: string, userAgent: string) {
  const res = await call(authRoute.POST, { method: "POST", path: "/api/auth", body: { user: login, password: PASSWORD }, headers: { ...ip(), "user-agent": userAgent } });
  expect(res.status, res.text).toBe(200);
  return res.body.token as string;
}

describe("GET /account/sessions", () => {
  it("lists the account's sessions with their kind, address and user agent, the current one marked", async () => {
    const user = await createTestUser();
    const token = await signInApi(user.login, "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0");
    const res = await list(token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.nb_total_objects).toBe(2);
    const objects = res.body.objects.map((o: unknown) => sessionResponse.parse(o));
    const current = objects.find((o: { current: boolean }) => o.current);
    expect(current).toMatchObject({ kind: "api", user_agent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0" });
    expect(current.ip).toMatch(/^10\./);
    expect(objects.filter((o: { current: boolean }) => !o.current)).toHaveLength(1);
  });

  it("never shows another user's sessions", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    const res = await list(user.token);
    const db = await getDb();
    const theirs = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, other.id));
    const ids = res.body.objects.map((o: { id: number }) => o.id);
    expect(ids).toHaveLength(1);
    for (const row of theirs) expect(ids).not.toContain(row.id);
  });

  it("refuses no token, an unknown token and an expired one", async () => {
    await expectAuthRequired(sessionsRoute.GET, { path: "/api/account/sessions" });
    await expectAuthRequired(sessionsRoute.DELETE, { method: "DELETE", path: "/api/account/sessions" });
    await expectAuthRequired(sessionRoute.DELETE, { method: "DELETE", path: "/api/account/session/1", params: { sessionId: "1" } });
  });
});

describe("DELETE /account/session/(id)", () => {
  it("ends that session at once: its next request is a 401", async () => {
    const user = await createTestUser();
    const laptop = await signInApi(user.login, "laptop");
    const sessionsNow = (await list(user.token)).body.objects as { id: number; user_agent: string }[];
    const target = sessionsNow.find((s) => s.user_agent === "laptop")!;
    expect((await call(accountRoute.GET, { path: "/api/account", token: laptop })).status).toBe(200);
    const res = await end(user.token, target.id);
    expect(res.status, res.text).toBe(204);
    expectError(await call(accountRoute.GET, { path: "/api/account", token: laptop }), 401, "unauthorized");
    // The caller's own session is untouched.
    expect((await call(accountRoute.GET, { path: "/api/account", token: user.token })).status).toBe(200);
  });

  it("answers 404 for another user's session, which lives on", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    const theirs = (await list(other.token)).body.objects[0].id as number;
    expectError(await end(user.token, theirs), 404, "not_found");
    expect((await call(accountRoute.GET, { path: "/api/account", token: other.token })).status).toBe(200);
  });

  it("refuses ids that are not positive integers", async () => {
    const user = await createTestUser();
    for (const bad of ["0", "-1", "abc", "1.5"]) expectError(await end(user.token, bad as unknown as number), 400);
  });
});

describe("DELETE /account/sessions", () => {
  it("ends every session but the current one, and no other user's", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    const a = await signInApi(user.login, "a");
    const b = await createToken(user.id);
    const res = await call(sessionsRoute.DELETE, { method: "DELETE", path: "/api/account/sessions", token: user.token });
    expect(res.status, res.text).toBe(204);
    for (const gone of [a, b]) expectError(await call(accountRoute.GET, { path: "/api/account", token: gone }), 401, "unauthorized");
    const left = (await list(user.token)).body;
    expect(left.nb_total_objects).toBe(1);
    expect(left.objects[0].current).toBe(true);
    expect((await call(accountRoute.GET, { path: "/api/account", token: other.token })).status).toBe(200);
  });
});
