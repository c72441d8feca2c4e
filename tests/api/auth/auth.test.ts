import { describe, expect, it } from "vitest";
import * as authRoute from "@/app/api/auth/route";
import * as notFoundRoute from "@/app/api/[...path]/route";
import { createTestUser, createToken, PASSWORD, unique } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";

const ip = () => ({ "x-forwarded-for": `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });

describe("POST /api/auth", () => {
  it("returns a token that authenticates", async () => {
    const user = await createTestUser();
    const res = await call(authRoute.POST, { method: "POST", body: { user: user.login, password: PASSWORD }, headers: ip() });
    expect(res.status).toBe(200);
    expect(res.body.token).toMatch(/^[\w-]{40,}$/);
    const out = await call(authRoute.DELETE, { method: "DELETE", token: res.body.token });
    expect(out.status).toBe(204);
    expectError(await call(authRoute.DELETE, { method: "DELETE", token: res.body.token }), 401);
  });

  it("refuses a wrong password with 401 and the error body", async () => {
    const user = await createTestUser();
    expectError(await call(authRoute.POST, { method: "POST", body: { user: user.login, password: "nope" }, headers: ip() }), 401, "unauthorized");
  });

  it("refuses inactive and expired accounts", async () => {
    const inactive = await createTestUser({ active: false });
    const expired = await createTestUser({ expire: new Date(Date.now() - 1000) });
    for (const u of [inactive, expired]) {
      const res = await call(authRoute.POST, { method: "POST", body: { user: u.login, password: PASSWORD }, headers: ip() });
      expectError(res, 401);
      expect(res.body.error).toMatch(/inactive|expired/);
      expect(res.body.details.reason).toBe(u === inactive ? "inactive" : "expired");
    }
  });

  it("throttles repeated failures per account and address with 429 and Retry-After, sparing other addresses", async () => {
    const user = await createTestUser();
    const attacker = { "x-forwarded-for": "10.66.1.1" };
    let last;
    for (let i = 0; i < 6; i++) last = await call(authRoute.POST, { method: "POST", body: { user: user.login, password: "bad" }, headers: attacker });
    expectError(last!, 429, "too_many_requests");
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    const blocked = await call(authRoute.POST, { method: "POST", body: { user: user.login, password: PASSWORD }, headers: attacker });
    expect(blocked.status).toBe(429);
    const owner = await call(authRoute.POST, { method: "POST", body: { user: user.login, password: PASSWORD }, headers: { "x-forwarded-for": "10.66.1.2" } });
    expect(owner.status).toBe(200);
  });

  it("answers 400 with field details for bad bodies and malformed JSON", async () => {
    const missing = await call(authRoute.POST, { method: "POST", body: { user: "x" } });
    expectError(missing, 400, "invalid_request");
    expect(missing.body.details).toEqual([expect.objectContaining({ path: "password" })]);
    expectError(await call(authRoute.POST, { method: "POST", rawBody: "{nope", headers: { "content-type": "application/json" } }), 400, "invalid_json");
  });

  it("answers 405 with Allow for a method the route lacks", async () => {
    const res = await call(authRoute.GET, { method: "GET" });
    expectError(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")).toContain("POST");
  });
});

describe("DELETE /api/auth", () => {
  it("needs a valid token", async () => {
    await expectAuthRequired(authRoute.DELETE, { method: "DELETE" });
  });
  it("only revokes the caller's session", async () => {
    const user = await createTestUser();
    const other = await createToken(user.id);
    expect((await call(authRoute.DELETE, { method: "DELETE", token: user.token })).status).toBe(204);
    expect((await call(authRoute.DELETE, { method: "DELETE", token: other })).status).toBe(204);
  });
});

describe("unknown /api paths", () => {
  it("answer a JSON 404", async () => {
    expectError(await call(notFoundRoute.GET, { path: `/api/${unique("nothing")}` }), 404, "not_found");
  });
});
