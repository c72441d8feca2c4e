import { createServer } from "node:net";
import { and, desc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as configRoute from "@/app/api/config/route";
import * as smtpTestRoute from "@/app/api/config/smtp/test/route";
import * as publicConfigRoute from "@/app/api/publicconfig/route";
import { getDb } from "@/db";
import { logs, platformConfig } from "@/db/schema";
import { configResponse, PASSWORD_MASK, publicConfigResponse } from "@/lib/contracts/config";
import { forgetCachedConfig, getPlatformConfig, readStoredConfig } from "@/lib/server/config/platform-config";
import packageJson from "@/package.json";
import { createAdmin, createTestUser, unique } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp";

// Opening the database (a fresh PGlite takes seconds) belongs to setup, not to the first test.
beforeAll(async () => {
  await getDb();
});

// The platform configuration is global and test files run in parallel: these tests change only
// options no other test relies on (the platform quota, SMTP credentials while no host is set),
// and put back what they changed.

const put = (token: string, body: unknown) => call(configRoute.PUT, { method: "PUT", token, body });
const stored = async () => readStoredConfig(await getDb());

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("GET /api/publicconfig", () => {
  it("answers without a token, with nothing secret", async () => {
    const res = await call(publicConfigRoute.GET, {});
    expect(res.status).toBe(200);
    const body = publicConfigResponse.strict().parse(res.body);
    expect(body.version).toBe(packageJson.version);
    expect(body.languages).toEqual(expect.arrayContaining(["auto", "en", "fr", "cn"]));
    expect(body.features).toHaveProperty("trash");
    expect(res.text).not.toMatch(/smtp|session_limit/);
  });

  it("refuses other methods", async () => {
    expectError(await call(publicConfigRoute.POST, { method: "POST", body: {} }), 405, "method_not_allowed");
  });
});

describe("GET and PUT /api/config", () => {
  let admin: Awaited<ReturnType<typeof createAdmin>>;
  let original: Awaited<ReturnType<typeof stored>>;
  beforeAll(async () => {
    admin = await createAdmin();
    original = await stored();
  });
  afterAll(async () => {
    await put(admin.token, { quota: original.quota, smtp: { smtp_username: original.smtp.smtp_username, smtp_password: original.smtp.smtp_password } });
  });

  it("returns the whole configuration to administrators", async () => {
    const res = await call(configRoute.GET, { token: admin.token });
    expect(res.status).toBe(200);
    const body = configResponse.strict().parse(res.body);
    expect(body.session_limit).toBe(original.session_limit);
    expect([PASSWORD_MASK, ""]).toContain(body.smtp.smtp_password);
  });

  it("stores changed options, clears the cache and logs ADMLLOG_CONFIG", async () => {
    const db = await getDb();
    await getPlatformConfig(db); // warm the cache: the change must still show at once
    const quota = Number.MAX_SAFE_INTEGER - Math.floor(Math.random() * 1000);
    const res = await put(admin.token, { quota });
    expect(res.status, res.text).toBe(200);
    expect(configResponse.parse(res.body).quota).toBe(quota);
    expect((await getPlatformConfig(db)).quota).toBe(quota);
    expect((await call(configRoute.GET, { token: admin.token })).body.quota).toBe(quota);
    const [row] = await db.select().from(platformConfig).where(eq(platformConfig.key, "quota"));
    expect(row.value).toBe(quota);
    const [entry] = await db.select().from(logs).where(and(eq(logs.type, "ADMLLOG_CONFIG"), like(logs.message, `%quota=${quota}%`))).orderBy(desc(logs.id)).limit(1);
    expect(entry).toMatchObject({ userId: admin.id, objectType: "config" });

    expect((await call(configRoute.PATCH, { method: "PATCH", token: admin.token, body: { quota: null } })).status).toBe(200);
    forgetCachedConfig();
    expect((await getPlatformConfig(db)).quota).toBeNull();
  });

  it("merges nested options and never returns the SMTP password", async () => {
    const username = unique("mailer_");
    const res = await put(admin.token, { smtp: { smtp_username: username, smtp_password: "S3cret-value" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.smtp).toMatchObject({ smtp_username: username, smtp_password: PASSWORD_MASK });
    expect(res.text).not.toContain("S3cret-value");
    let now = await stored();
    expect(now.smtp).toMatchObject({ smtp_username: username, smtp_password: "S3cret-value", smtp_auth: original.smtp.smtp_auth, smtp_from: original.smtp.smtp_from });

    // The mask sent back, or no password at all, keeps the stored one; "" clears it.
    const shown = (await call(configRoute.GET, { token: admin.token })).body.smtp;
    await put(admin.token, { smtp: { smtp_username: shown.smtp_username, smtp_password: shown.smtp_password } });
    expect((await stored()).smtp.smtp_password).toBe("S3cret-value");
    await put(admin.token, { smtp: { smtp_username: `${username}2` } });
    now = await stored();
    expect(now.smtp).toMatchObject({ smtp_username: `${username}2`, smtp_password: "S3cret-value" });
    const cleared = await put(admin.token, { smtp: { smtp_password: "" } });
    expect(cleared.body.smtp.smtp_password).toBe("");
    expect((await stored()).smtp.smtp_password).toBe("");
  });

  it("answers 400 with details for invalid or unknown options, changing nothing", async () => {
    const before = await stored();
    const res = await put(admin.token, { session_limit: 0, quota: 5 });
    expectError(res, 400, "invalid_request");
    expect(res.body.details).toEqual([expect.objectContaining({ path: "session_limit" })]);
    expectError(await put(admin.token, { no_such_option: true }), 400, "invalid_request");
    expectError(await put(admin.token, { features: { teleport: true } }), 400, "invalid_request");
    expectError(await put(admin.token, { smtp: { smtp_port: "twenty-five" } }), 400, "invalid_request");
    expect((await stored()).quota).toBe(before.quota);
  });

  it("is for administrators only", async () => {
    await expectAuthRequired(configRoute.GET, {});
    await expectAuthRequired(configRoute.PUT, { method: "PUT", body: { quota: 1 } });
    for (const role of [1, 2, 4]) {
      const user = await createTestUser({ role });
      expectError(await call(configRoute.GET, { token: user.token }), 403, "forbidden");
      expectError(await put(user.token, { quota: 1 }), 403, "forbidden");
    }
    expect((await stored()).quota).not.toBe(1);
    expectError(await call(configRoute.DELETE, { method: "DELETE", token: admin.token }), 405, "method_not_allowed");
  });
});

describe("POST /api/config/smtp/test", () => {
  let open: TestSmtpServer;
  let guarded: TestSmtpServer;
  let admin: Awaited<ReturnType<typeof createAdmin>>;
  beforeAll(async () => {
    open = await startSmtpServer();
    guarded = await startSmtpServer({ auth: { user: "mailer", pass: "Right-pass" } });
    admin = await createAdmin();
  });
  afterAll(async () => {
    await Promise.all([open.close(), guarded.close()]);
  });
  const test = (body: Record<string, unknown>, token = admin.token) => call(smtpTestRoute.POST, { method: "POST", token, body });

  it("sends a real test mail and returns the server's answer, without saving the settings", async () => {
    const to = `${unique("dest")}@example.test`;
    const res = await test({ smtp_host: "127.0.0.1", smtp_port: open.port, smtp_auth: false, smtp_secure: false, smtp_username: "", smtp_password: "", smtp_debug: false, to });
    expect(res.status, res.text).toBe(200);
    // The local server's own words (smtp-server's DATA reply), not a status we made up.
    expect(res.body).toEqual({ ok: true, response: "250 OK: message queued" });
    const mail = await open.waitFor((m) => m.to.includes(to));
    expect(mail.subject).toContain("SMTP test");
    const now = await stored();
    expect(`${now.smtp.smtp_host}:${now.smtp.smtp_port}`).not.toBe(`127.0.0.1:${open.port}`);
  });

  it("mails the administrator by default and returns the dialogue with smtp_debug", async () => {
    const res = await test({ smtp_host: "127.0.0.1", smtp_port: open.port, smtp_debug: 1 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.log.join("\n")).toMatch(/MAIL FROM/);
    await open.waitFor((m) => m.to.includes(admin.email));
  });

  it("authenticates, and reports the server's refusal of wrong credentials with 502", async () => {
    const ok = await test({ smtp_host: "127.0.0.1", smtp_port: guarded.port, smtp_auth: true, smtp_username: "mailer", smtp_password: "Right-pass", smtp_debug: true });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.log.join("\n")).not.toContain("Right-pass");
    expect(guarded.received.at(-1)?.user).toBe("mailer");
    const refused = await test({ smtp_host: "127.0.0.1", smtp_port: guarded.port, smtp_auth: true, smtp_username: "mailer", smtp_password: "wrong" });
    expectError(refused, 502, "smtp_failed");
    expect(refused.body.details.response).toMatch(/^535 /);
    expect(refused.body.details.command).toMatch(/AUTH/);
  });

  it("uses the stored password when the masked one is sent back, and only towards the stored server", async () => {
    const before = (await stored()).smtp;
    await put(admin.token, { smtp: { smtp_host: "127.0.0.1", smtp_port: guarded.port, smtp_password: "Right-pass" } });
    // A server that would accept the stored password: anything it receives proves a leak.
    const catcher = await startSmtpServer({ auth: { user: "mailer", pass: "Right-pass" } });
    try {
      const res = await test({ smtp_host: "127.0.0.1", smtp_port: guarded.port, smtp_auth: true, smtp_username: "mailer", smtp_password: PASSWORD_MASK });
      expect(res.status, res.text).toBe(200);
      // Issue 11, finding 13: the masked password pointed at another server never leaves.
      const elsewhere = await test({ smtp_host: "127.0.0.1", smtp_port: catcher.port, smtp_auth: true, smtp_username: "mailer", smtp_password: PASSWORD_MASK });
      expectError(elsewhere, 400, "invalid_request");
      expect(elsewhere.body.details[0].path).toBe("smtp_password");
      const otherHost = await test({ smtp_host: "localhost", smtp_port: guarded.port, smtp_auth: true, smtp_username: "mailer", smtp_password: PASSWORD_MASK });
      expectError(otherHost, 400, "invalid_request");
      expect(catcher.received).toHaveLength(0);
    } finally {
      await catcher.close();
      await put(admin.token, { smtp: { smtp_host: before.smtp_host, smtp_port: before.smtp_port, smtp_password: before.smtp_password } });
    }
  });

  it("answers 502 with the connection error for a port nobody listens on", async () => {
    const res = await test({ smtp_host: "127.0.0.1", smtp_port: await closedPort() });
    expectError(res, 502, "smtp_failed");
    expect(res.body.details.response).toMatch(/ECONNREFUSED/);
    expect(res.body.error).toMatch(/SMTP test failed/);
  });

  it("validates the body and needs somewhere to send", async () => {
    expectError(await test({ smtp_port: 25 }), 400, "invalid_request");
    const noMail = await createAdmin({ email: "" });
    const res = await test({ smtp_host: "127.0.0.1", smtp_port: open.port }, noMail.token);
    expectError(res, 400, "invalid_request");
    expect(res.body.error).toMatch(/to/);
  });

  it("is for administrators only", async () => {
    await expectAuthRequired(smtpTestRoute.POST, { method: "POST", body: { smtp_host: "127.0.0.1", smtp_port: open.port } });
    const manager = await createTestUser({ role: 4 });
    const count = open.received.length;
    expectError(await test({ smtp_host: "127.0.0.1", smtp_port: open.port }, manager.token), 403, "forbidden");
    expect(open.received.length).toBe(count);
  });
});
