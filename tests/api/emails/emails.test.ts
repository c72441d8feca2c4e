import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as emailRoute from "@/app/api/email/[emailId]/route";
import * as createRoute from "@/app/api/email/route";
import * as listRoute from "@/app/api/emails/route";
import * as resetRoute from "@/app/api/reset_password/route";
import * as userRoute from "@/app/api/user/route";
import { getDb } from "@/db";
import { PASSWORD_RESET_JOB } from "@/lib/server/account/request-password-reset";
import { alerts, emails } from "@/db/schema";
import { emailResponse } from "@/lib/contracts/emails";
import { forgetCachedConfig } from "@/lib/server/config/platform-config";
import { sendMailJob } from "@/lib/server/mail/send-mail-job";
import { createAdmin, createTestUser, latestLog, unique, type TestUser } from "../../helpers/factories";
import { runJobsUntil } from "../../helpers/jobs";
import { createFolder } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired, expectRefusedFor } from "../../helpers/security";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp";

let smtp: TestSmtpServer;
const savedSmtpUrl = process.env.SMTP_URL;
beforeAll(async () => {
  await getDb();
  smtp = await startSmtpServer();
}, 180_000);
afterAll(async () => {
  if (savedSmtpUrl === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = savedSmtpUrl;
  forgetCachedConfig();
  await smtp.close();
});

const TEMPLATE = { object: "News in {{folder}}", content: "Hello {{recipient}},\n\n{{actor}} changed {{file}}:\n{{changes}}\n{{link}}" };

const createTemplate = (user: TestUser, body: Record<string, unknown> = TEMPLATE) => call(createRoute.POST, { method: "POST", token: user.token, body });
const read = (user: TestUser, id: number) => call(emailRoute.GET, { token: user.token, params: { emailId: String(id) } });
const update = (user: TestUser, id: number, body: Record<string, unknown>) => call(emailRoute.PUT, { method: "PUT", token: user.token, params: { emailId: String(id) }, body });
const remove = (user: TestUser, id: number) => call(emailRoute.DELETE, { method: "DELETE", token: user.token, params: { emailId: String(id) } });
const list = (user: TestUser, query: Record<string, string | number> = {}) => call(listRoute.GET, { token: user.token, query });

async function templateOf(user: TestUser): Promise<number> {
  const res = await createTemplate(user);
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

/** An outbox row written directly, without a delivery job, so no other test file's queue sends it meanwhile. */
async function outboxMail(values: Partial<typeof emails.$inferInsert> = {}) {
  const db = await getDb();
  const [row] = await db
    .insert(emails)
    .values({ type: "EM_TE_TOSEND", object: "Waiting", content: "plain text", html: "<p>plain text</p>", to: `${unique("to")}@example.test`, ...values })
    .returning();
  return row;
}

async function emailRow(id: number) {
  const db = await getDb();
  const [row] = await db.select().from(emails).where(eq(emails.id, id));
  return row;
}

describe("POST /api/email", () => {
  it("creates a custom alert mail owned by the caller", async () => {
    const user = await createTestUser();
    const res = await createTemplate(user);
    expect(res.status, res.text).toBe(201);
    emailResponse.strict().parse(res.body);
    expect(res.body).toMatchObject({ type: "EM_TE_ALERT", ...TEMPLATE, owner_id: String(user.id), owner: `Test ${user.lastname}`, last_send: null, sensitive: false });
    expect(res.body).not.toHaveProperty("to");
    expect(await latestLog("email", res.body.id, "ADMLLOG_INSERT")).toMatchObject({ userId: user.id });
    // The type may be named, as long as it is the one a client may create.
    const named = await createTemplate(user, { ...TEMPLATE, type: "EM_TE_ALERT" });
    expect(named.status, named.text).toBe(201);
  });

  it("refuses other types, unknown placeholders and incomplete bodies with 400", async () => {
    const user = await createTestUser();
    for (const type of ["EM_TE_SENDED", "EM_TE_TOSEND", "EM_TE_DEFAUT", "other"]) {
      expectError(await createTemplate(user, { ...TEMPLATE, type }), 400, "invalid_request");
    }
    const unknown = await createTemplate(user, { ...TEMPLATE, content: "Hi {{password}}" });
    expectError(unknown, 400, "invalid_request");
    expect(unknown.body.details).toEqual([expect.objectContaining({ path: "content", message: expect.stringMatching(/\{\{password\}\}/) })]);
    expectError(await createTemplate(user, { object: TEMPLATE.object }), 400, "invalid_request");
    expectError(await createTemplate(user, { ...TEMPLATE, content: "  " }), 400, "invalid_request");
    expectError(await createTemplate(user, { ...TEMPLATE, object: "two\nlines" }), 400, "invalid_request");
    const db = await getDb();
    expect(await db.select().from(emails).where(eq(emails.ownerId, user.id))).toHaveLength(0);
  });

  it("needs a token", async () => {
    await expectAuthRequired(createRoute.POST, { method: "POST", body: TEMPLATE });
  });
});

describe("GET /api/email/(emailId)", () => {
  it("shows its owner and administrators a template, and the outbox fields of a mail", async () => {
    const owner = await createTestUser();
    const id = await templateOf(owner);
    const own = await read(owner, id);
    expect(own.status, own.text).toBe(200);
    expect(own.body).toMatchObject({ id, ...TEMPLATE });
    expect((await read(await createAdmin(), id)).body).toMatchObject({ id, owner_id: String(owner.id) });

    const mail = await outboxMail({ ownerId: owner.id, type: "EM_TE_SENDED", from: "coffre@example.test", lastSend: new Date("2026-01-02T03:04:05Z") });
    const sent = await read(owner, mail.id);
    emailResponse.strict().parse(sent.body);
    expect(sent.body).toMatchObject({ type: "EM_TE_SENDED", from: "coffre@example.test", to: mail.to, content: "plain text", last_send: "2026-01-02T03:04:05.000Z" });
  });

  it("answers 404 for an unknown email and 400 for a bad id", async () => {
    const user = await createTestUser();
    expectError(await read(user, 2_147_483_000), 404, "not_found");
    expectError(await call(emailRoute.GET, { token: user.token, params: { emailId: "x" } }), 400, "invalid_request");
  });

  it("hides other users' emails (404) and system mails from non-administrators", async () => {
    const owner = await createTestUser();
    const id = await templateOf(owner);
    const options = { params: { emailId: String(id) } };
    await expectAuthRequired(emailRoute.GET, options);
    await expectRefusedFor((await createTestUser()).token, emailRoute.GET, options, 404);
    // A manager administers users, not their mail.
    await expectRefusedFor((await createTestUser({ role: 4 })).token, emailRoute.GET, options, 404);
    const system = await outboxMail({ ownerId: null });
    expectError(await read(owner, system.id), 404);
  });

  it("never shows the body of a mail carrying a secret, even to an administrator", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    const asked = await call(resetRoute.POST, { method: "POST", body: { login_or_email: user.login }, headers: { "x-forwarded-for": "10.77.1.2" } });
    expect(asked.status, asked.text).toBe(204);
    const db = await getDb();
    // The request only queues the work (issue 11: the same answer and timing whatever exists).
    const reset = await runJobsUntil([PASSWORD_RESET_JOB], async () => (await db.select().from(emails).where(eq(emails.to, user.email)))[0]);
    expect(reset).toMatchObject({ sensitive: true, ownerId: null });
    expect(reset.content).toMatch(/reset-password\//);

    const res = await read(admin, reset.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ sensitive: true, content: "", to: user.email, owner_id: null, object: reset.object });
    expect(res.text).not.toContain("reset-password/");
    const listed = await list(admin, { type: "EM_TE_TOSEND", nb_objects: 1000 });
    expect(listed.body.objects.find((e: { id: number }) => e.id === reset.id)).toMatchObject({ content: "" });
    expect(listed.text).not.toContain("reset-password/");

    // The initial password of a new account: its creator may see that the mail exists, not read it again.
    const login = unique("welcome_");
    const made = await call(userRoute.POST, { method: "POST", token: admin.token, query: { alert: 1 }, body: { login, password: "Welcome-123!", email: `${login}@example.test` } });
    expect(made.status, made.text).toBe(201);
    const [welcome] = await db.select().from(emails).where(eq(emails.to, `${login}@example.test`));
    const shown = await read(admin, welcome.id);
    expect(shown.body).toMatchObject({ sensitive: true, content: "", owner_id: String(admin.id) });
    expect(shown.text).not.toContain("Welcome-123!");
  });
});

describe("GET /api/emails", () => {
  it("lists the caller's own emails, newest first, paged and filtered by type", async () => {
    const user = await createTestUser();
    const first = await templateOf(user);
    const second = await templateOf(user);
    const mail = await outboxMail({ ownerId: user.id });
    await templateOf(await createTestUser());

    const all = await list(user);
    expect(all.status, all.text).toBe(200);
    expect(all.body).toMatchObject({ offset_start: 0, nb_objects: 3, nb_objets: 3, nb_total_objects: 3 });
    expect(all.body.objects.map((e: { id: number }) => e.id)).toEqual([mail.id, second, first]);
    for (const e of all.body.objects) emailResponse.strict().parse(e);

    const templates = await list(user, { type: "EM_TE_ALERT", offset_start: 1, nb_objects: 1 });
    expect(templates.body).toMatchObject({ offset_start: 1, nb_objects: 1, nb_total_objects: 2 });
    expect(templates.body.objects.map((e: { id: number }) => e.id)).toEqual([first]);
    expect((await list(user, { type: "EM_TE_SENDED" })).body.nb_total_objects).toBe(0);
  });

  it("lists everyone's emails for an administrator", async () => {
    const admin = await createAdmin();
    const other = await createTestUser();
    const id = await templateOf(other);
    const res = await list(admin, { type: "EM_TE_ALERT", nb_objects: 1000 });
    expect(res.body.objects.map((e: { id: number }) => e.id)).toContain(id);
  });

  it("refuses a bad type or paging (400) and needs a token", async () => {
    const user = await createTestUser();
    expectError(await list(user, { type: "EM_TE_OTHER" }), 400, "invalid_request");
    expectError(await list(user, { nb_objects: -1 }), 400, "invalid_request");
    await expectAuthRequired(listRoute.GET, {});
  });
});

describe("PUT /api/email/(emailId)", () => {
  it("changes a template for its owner and for an administrator", async () => {
    const owner = await createTestUser();
    const id = await templateOf(owner);
    const res = await update(owner, id, { object: "Changes in {{folder}}", content: "{{changes}}" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id, object: "Changes in {{folder}}", content: "{{changes}}", type: "EM_TE_ALERT" });
    expect(await latestLog("email", id, "ADMLLOG_UPDATE")).toMatchObject({ userId: owner.id, message: expect.stringMatching(/object, content/) });

    const admin = await createAdmin();
    const byAdmin = await call(emailRoute.PATCH, { method: "PATCH", token: admin.token, params: { emailId: String(id) }, body: { content: "By {{actor}}" } });
    expect(byAdmin.status, byAdmin.text).toBe(200);
    expect(await emailRow(id)).toMatchObject({ content: "By {{actor}}", ownerId: owner.id });
  });

  it("corrects a waiting mail (to, object, content) and drops its stale HTML part", async () => {
    const owner = await createTestUser();
    const mail = await outboxMail({ ownerId: owner.id });
    const res = await update(owner, mail.id, { to: "a@example.test, b@example.test", object: "Fixed", content: "corrected text" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ to: "a@example.test, b@example.test", object: "Fixed", content: "corrected text", type: "EM_TE_TOSEND" });
    expect(await emailRow(mail.id)).toMatchObject({ html: null, content: "corrected text" });
    // Only the address: the HTML part still says what the text says.
    const other = await outboxMail({ ownerId: owner.id });
    expect((await update(owner, other.id, { to: "c@example.test" })).status).toBe(200);
    expect((await emailRow(other.id)).html).toBe("<p>plain text</p>");
  });

  it("refuses bad fields with 400: recipients on a template, bad addresses, unknown placeholders", async () => {
    const owner = await createTestUser();
    const id = await templateOf(owner);
    expectError(await update(owner, id, { to: "x@example.test" }), 400, "invalid_request");
    expectError(await update(owner, id, { content: "{{secret}}" }), 400, "invalid_request");
    expectError(await update(owner, id, { content: "" }), 400, "invalid_request");
    const mail = await outboxMail({ ownerId: owner.id });
    expectError(await update(owner, mail.id, { to: "not an address" }), 400, "invalid_request");
    expectError(await update(owner, mail.id, { to: " , " }), 400, "invalid_request");
    expect(await emailRow(id)).toMatchObject({ content: TEMPLATE.content });
  });

  it("keeps sent mails and mails carrying a secret read-only (403)", async () => {
    const owner = await createTestUser();
    const admin = await createAdmin();
    const sent = await outboxMail({ ownerId: owner.id, type: "EM_TE_SENDED" });
    expectError(await update(owner, sent.id, { object: "Rewritten" }), 403, "forbidden");
    expectError(await update(admin, sent.id, { object: "Rewritten" }), 403, "forbidden");
    const secret = await outboxMail({ ownerId: null, sensitive: true, content: "link: https://coffre.test/reset-password/abc" });
    expectError(await update(admin, secret.id, { to: "attacker@example.test" }), 403, "forbidden");
    expect(await emailRow(secret.id)).toMatchObject({ to: secret.to });
    expect(await emailRow(sent.id)).toMatchObject({ object: "Waiting" });
  });

  it("refuses no token and other users (404)", async () => {
    const owner = await createTestUser();
    const id = await templateOf(owner);
    const options = { method: "PUT", params: { emailId: String(id) }, body: { object: "Taken" } };
    await expectAuthRequired(emailRoute.PUT, options);
    await expectRefusedFor((await createTestUser()).token, emailRoute.PUT, options, 404);
    expect(await emailRow(id)).toMatchObject({ object: TEMPLATE.object });
  });
});

describe("DELETE /api/email/(emailId)", () => {
  it("deletes a template; alerts using it fall back to the default mail", async () => {
    const owner = await createTestUser();
    const id = await templateOf(owner);
    const folder = await createFolder(owner, owner.privateRootId!, unique("watched"));
    const db = await getDb();
    const [alert] = await db.insert(alerts).values({ folderId: folder.id, targetId: owner.id, ownerId: owner.id, emailId: id }).returning();
    const res = await remove(owner, id);
    expect(res.status, res.text).toBe(204);
    expect(await emailRow(id)).toBeUndefined();
    const [after] = await db.select().from(alerts).where(eq(alerts.id, alert.id));
    expect(after.emailId).toBeNull();
    expect(await latestLog("email", id, "ADMLLOG_DELETE")).toMatchObject({ userId: owner.id });
  });

  it("cancels a waiting mail: its delivery sends nothing", async () => {
    const owner = await createTestUser();
    const mail = await outboxMail({ ownerId: owner.id });
    expect((await remove(owner, mail.id)).status).toBe(204);
    process.env.SMTP_URL = smtp.url;
    const db = await getDb();
    await sendMailJob(db, { emailId: mail.id });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(smtp.received.filter((m) => m.to.includes(mail.to!))).toHaveLength(0);
  });

  it("keeps sent mails (403), lets an administrator cancel a system mail, and hides others' emails (404)", async () => {
    const owner = await createTestUser();
    const sent = await outboxMail({ ownerId: owner.id, type: "EM_TE_SENDED" });
    expectError(await remove(owner, sent.id), 403, "forbidden");
    expect(await emailRow(sent.id)).toBeDefined();

    const system = await outboxMail({ ownerId: null, sensitive: true });
    expectError(await remove(owner, system.id), 404);
    expect((await remove(await createAdmin(), system.id)).status).toBe(204);

    const id = await templateOf(owner);
    const options = { method: "DELETE", params: { emailId: String(id) } };
    await expectAuthRequired(emailRoute.DELETE, options);
    await expectRefusedFor((await createTestUser()).token, emailRoute.DELETE, options, 404);
    expect(await emailRow(id)).toBeDefined();
  });
});
