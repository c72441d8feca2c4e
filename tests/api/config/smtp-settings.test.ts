import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as configRoute from "@/app/api/config/route";
import * as smtpRoute from "@/app/api/config/smtp/route";
import * as smtpTestRoute from "@/app/api/config/smtp/test/route";
import { getDb } from "@/db";
import { smtpSettingsResponse } from "@/lib/contracts/config";
import { forgetCachedConfig } from "@/lib/server/config/platform-config";
import { resolveMailRoute } from "@/lib/server/mail/transport";
import { createAdmin, createTestUser, unique, type TestUser } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { onOwnDatabase } from "../../helpers/own-database";
import { expectAuthRequired, expectRefusedFor } from "../../helpers/security";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp";

// These tests point the platform's mail elsewhere: on a database of their own, so that no other
// file's mail follows them. SMTP_URL is set in this worker only.
onOwnDatabase("smtp_settings");

let environment: TestSmtpServer;
let consoleServer: TestSmtpServer;
let admin: TestUser;
const savedSmtpUrl = process.env.SMTP_URL;
const ENV_PASSWORD = "Env-secret-9";

beforeAll(async () => {
  await getDb();
  environment = await startSmtpServer({ auth: { user: "envuser", pass: ENV_PASSWORD } });
  consoleServer = await startSmtpServer();
  admin = await createAdmin();
}, 180_000);
afterAll(async () => {
  if (savedSmtpUrl === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = savedSmtpUrl;
  forgetCachedConfig();
  await Promise.all([environment.close(), consoleServer.close()]);
});

const useEnvironment = (on: boolean) => {
  if (on) process.env.SMTP_URL = `smtp://envuser:${ENV_PASSWORD}@127.0.0.1:${environment.port}`;
  else delete process.env.SMTP_URL;
  forgetCachedConfig();
};
const read = (token: string | null = admin.token) => call(smtpRoute.GET, { path: "/api/config/smtp", token });
const put = (body: unknown, token = admin.token) => call(configRoute.PUT, { method: "PUT", token, body });
const sendTest = (body: Record<string, unknown>, token = admin.token) => call(smtpTestRoute.POST, { method: "POST", path: "/api/config/smtp/test", token, body });
const consoleSettings = () => ({ smtp_host: "127.0.0.1", smtp_port: consoleServer.port, smtp_secure: false, smtp_auth: true, smtp_username: "consoleuser", smtp_password: "Console-secret-7" });

describe("GET /api/config/smtp", () => {
  it("shows SMTP_URL's settings with their source, never its password", async () => {
    useEnvironment(true);
    const res = await read();
    expect(res.status, res.text).toBe(200);
    const view = smtpSettingsResponse.strict().parse(res.body);
    expect(view).toMatchObject({
      origin: "environment",
      environment: true,
      override: false,
      host: { value: "127.0.0.1", source: "environment" },
      port: { value: environment.port, source: "environment" },
      security: { value: "starttls", source: "environment" },
      user: { value: "envuser", source: "environment" },
      password: { value: true, source: "environment" },
      from: { value: "coffre@localhost", source: "default" },
    });
    expect(res.text).not.toContain(ENV_PASSWORD);
  });

  it("keeps SMTP_URL in force over console settings until the console overrides it, connection settings never mixed", async () => {
    useEnvironment(true);
    expect((await put({ smtp: { ...consoleSettings(), smtp_from: "desk@example.test" } })).status).toBe(200);
    let view = (await read()).body;
    expect(view).toMatchObject({ origin: "environment", override: false, host: { source: "environment" }, user: { value: "envuser" }, from: { value: "desk@example.test", source: "console" } });
    expect((await resolveMailRoute(await getDb()))?.options).toMatchObject({ port: environment.port, auth: { user: "envuser" } });

    expect((await put({ smtp: { smtp_override: true } })).status).toBe(200);
    view = (await read()).body;
    expect(view).toMatchObject({ origin: "console", override: true, host: { value: "127.0.0.1", source: "console" }, port: { value: consoleServer.port, source: "console" }, user: { value: "consoleuser", source: "console" }, password: { value: true, source: "console" } });
    expect(JSON.stringify(view)).not.toContain("Console-secret-7");
    const route = await resolveMailRoute(await getDb());
    expect(route).toMatchObject({ from: "desk@example.test", options: { port: consoleServer.port, auth: { user: "consoleuser", pass: "Console-secret-7" } } });

    // Without SMTP_URL the console's settings are in force as they were before.
    useEnvironment(false);
    expect((await read()).body).toMatchObject({ origin: "console", environment: false, host: { source: "console" } });
    expect((await put({ smtp: { smtp_override: false, smtp_host: "" } })).status).toBe(200);
    expect((await read()).body).toMatchObject({ origin: null, host: { value: "", source: "default" } });
    expect(await resolveMailRoute(await getDb())).toBeNull();
  });

  it("refuses an override without a host (400), changing nothing", async () => {
    useEnvironment(true);
    const res = await put({ smtp: { smtp_override: true, smtp_host: "" } });
    expectError(res, 400, "invalid_request");
    expect(res.body.details).toEqual([expect.objectContaining({ path: "smtp.smtp_host" })]);
    expect((await read()).body).toMatchObject({ origin: "environment", override: false });
    expectError(await put({ smtp: { smtp_override: "yes" } }), 400, "invalid_request");
  });

  it("is for administrators only: users and managers get 403, no token 401", async () => {
    const user = await createTestUser();
    const manager = await createTestUser({ role: 4 });
    await expectRefusedFor(user.token, smtpRoute.GET, { path: "/api/config/smtp" });
    await expectRefusedFor(manager.token, smtpRoute.GET, { path: "/api/config/smtp" });
    await expectAuthRequired(smtpRoute.GET, { path: "/api/config/smtp" });
    expectError(await put({ smtp: { smtp_override: true } }, manager.token), 403, "forbidden");
  });
});

describe("POST /api/config/smtp/test with in_force", () => {
  it("sends a test mail through the settings in force, SMTP_URL's credentials included", async () => {
    useEnvironment(true);
    const to = `${unique("test")}@example.test`;
    const res = await sendTest({ in_force: true, to });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ ok: true });
    const mail = await environment.waitFor((m) => m.to.includes(to));
    expect(mail.user).toBe("envuser");
  });

  it("answers 409 when no SMTP server is in force, and 400 without a host or in_force", async () => {
    useEnvironment(false);
    expectError(await sendTest({ in_force: true, to: "a@example.test" }), 409, "conflict");
    expectError(await sendTest({ smtp_port: 25 }), 400, "invalid_request");
  });

  it("is for administrators only", async () => {
    useEnvironment(true);
    const manager = await createTestUser({ role: 4 });
    const count = environment.received.length;
    expectError(await sendTest({ in_force: true }, manager.token), 403, "forbidden");
    await expectAuthRequired(smtpTestRoute.POST, { method: "POST", path: "/api/config/smtp/test", body: { in_force: true } });
    expect(environment.received.length).toBe(count);
  });
});
