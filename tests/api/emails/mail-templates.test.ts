import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as resetRoute from "@/app/api/reset_password/route";
import * as userByIdRoute from "@/app/api/user/[userId]/route";
import * as userRoute from "@/app/api/user/route";
import { getDb } from "@/db";
import { PASSWORD_RESET_JOB } from "@/lib/server/account/request-password-reset";
import { emails } from "@/db/schema";
import { PASSWORD_RESET_MAIL } from "@/lib/server/account/request-password-reset";
import { forgetCachedConfig } from "@/lib/server/config/platform-config";
import { sendMailJob } from "@/lib/server/mail/send-mail-job";
import { ACCOUNT_CREATED_MAIL } from "@/lib/server/users/create-user";
import { PASSWORD_CHANGED_MAIL } from "@/lib/server/users/update-user";
import { createAdmin, createTestUser, unique } from "../../helpers/factories";
import { runJobsUntil } from "../../helpers/jobs";
import { call } from "../../helpers/http";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp";

// SMTP_URL is set in this worker only; each mail is delivered by calling the mail job itself,
// so other test files' queues never deliver (or swallow) ours.
let smtp: TestSmtpServer;
const savedSmtpUrl = process.env.SMTP_URL;
beforeAll(async () => {
  await getDb();
  smtp = await startSmtpServer();
  process.env.SMTP_URL = smtp.url;
  forgetCachedConfig();
}, 180_000);
afterAll(async () => {
  if (savedSmtpUrl === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = savedSmtpUrl;
  forgetCachedConfig();
  await smtp.close();
});

async function lastMailTo(to: string) {
  const db = await getDb();
  const [mail] = await db.select().from(emails).where(eq(emails.to, to)).orderBy(desc(emails.id)).limit(1);
  return mail;
}

async function deliver(to: string) {
  const mail = await lastMailTo(to);
  await sendMailJob(await getDb(), { emailId: mail.id });
  return { mail, received: await smtp.waitFor((m) => m.to.includes(to)) };
}

describe("templates of the account mails", () => {
  it("use only placeholders their callers fill, in both languages", () => {
    for (const template of [PASSWORD_RESET_MAIL, ACCOUNT_CREATED_MAIL, PASSWORD_CHANGED_MAIL]) {
      for (const language of ["en", "fr"] as const) {
        const names = [...`${template[language].subject}\n${template[language].text}`.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]);
        expect(names.length).toBeGreaterThan(0);
        expect(names.every((n) => ["platform", "login", "link", "recipient", "password"].includes(n))).toBe(true);
      }
    }
  });

  it("mails a French user the French account mail with its HTML part, through SMTP", async () => {
    const admin = await createAdmin();
    const login = unique("nouveau_");
    const email = `${login}@example.test`;
    const made = await call(userRoute.POST, { method: "POST", token: admin.token, query: { alert: 1 }, body: { login, password: "Bienvenue-123", email, language: "fr", firstname: "Zoé", lastname: "Martin" } });
    expect(made.status, made.text).toBe(201);

    const { mail, received } = await deliver(email);
    expect(mail).toMatchObject({ type: "EM_TE_TOSEND", sensitive: true, ownerId: admin.id });
    expect(mail.object).toMatch(/^Votre compte /);
    expect(mail.content).toContain(`Identifiant : ${login}`);
    expect(mail.content).toContain("Bonjour Zoé Martin");
    expect(mail.html).toContain("<p>Bonjour Zoé Martin,</p>");

    expect(received.subject).toBe(mail.object);
    expect(received.raw).toContain("multipart/alternative");
    expect(received.raw).toMatch(/Content-Type: text\/html/i);
    expect(received.raw).toMatch(/Content-Type: text\/plain/i);
    expect(received.raw).toContain(`Identifiant : ${login}`);
    expect(received.raw).toContain("Bienvenue-123");
  });

  it("keeps English for other languages, and mails password changes and reset links from templates", async () => {
    const admin = await createAdmin();
    const user = await createTestUser({ language: "de" });
    const changed = await call(userByIdRoute.PUT, { method: "PUT", token: admin.token, params: { userId: String(user.id) }, query: { alert: 1 }, body: { password: "Changed-pass-42" } });
    expect(changed.status, changed.text).toBe(200);
    const { mail, received } = await deliver(user.email);
    expect(mail).toMatchObject({ sensitive: true, object: expect.stringMatching(/password was changed$/) });
    expect(mail.content).toContain(`Login: ${user.login}\nPassword: Changed-pass-42`);
    expect(received.raw).toMatch(/Content-Type: text\/html/i);

    const french = await createTestUser({ language: "fr" });
    const asked = await call(resetRoute.POST, { method: "POST", body: { login_or_email: french.login }, headers: { "x-forwarded-for": "10.66.3.4" } });
    expect(asked.status, asked.text).toBe(204);
    // The request only queues the work (issue 11: the same answer and timing whatever exists).
    const reset = await runJobsUntil([PASSWORD_RESET_JOB], async () => {
      const mail = await lastMailTo(french.email);
      return mail?.content.includes("/reset-password/") ? mail : undefined;
    });
    expect(reset).toMatchObject({ sensitive: true, ownerId: null, object: expect.stringMatching(/^Réinitialisez votre mot de passe /) });
    expect(reset.content).toMatch(/http:\/\/coffre\.test\/reset-password\/[\w-]+/);
    expect(reset.html).toMatch(/<a href="http:\/\/coffre\.test\/reset-password\/[\w-]+">/);
  });
});
