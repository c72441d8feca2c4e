import { createServer } from "node:net";
import { and, desc, eq, inArray, like, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as configRoute from "@/app/api/config/route";
import * as userRoute from "@/app/api/user/route";
import { getDb } from "@/db";
import { emails, jobs, logs } from "@/db/schema";
import { forgetCachedConfig, readStoredConfig } from "@/lib/server/config/platform-config";
import { queueMail } from "@/lib/server/mail/queue-mail";
import { sendMailJob } from "@/lib/server/mail/send-mail-job";
import { createAdmin, unique } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp";

// SMTP is configured through SMTP_URL in this worker only, so the global platform configuration
// stays untouched, except in the one test about configuring SMTP, which puts it back.

let server: TestSmtpServer;
const savedSmtpUrl = process.env.SMTP_URL;
beforeAll(async () => {
  // Opening the database (a fresh PGlite takes seconds) belongs to setup, not to the first test.
  await getDb();
  server = await startSmtpServer();
});
afterEach(() => {
  process.env.SMTP_URL = server.url;
  forgetCachedConfig();
});
afterAll(async () => {
  if (savedSmtpUrl === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = savedSmtpUrl;
  await server.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const address = () => `${unique("rcpt")}@example.test`;

async function emailRow(id: number) {
  const db = await getDb();
  const [row] = await db.select().from(emails).where(eq(emails.id, id));
  return row;
}

/** Jobs queued for one mail (their payload names it). */
async function jobsOf(emailId: number) {
  const db = await getDb();
  return db.select().from(jobs).where(and(eq(jobs.kind, "mail.send"), sql`${jobs.payload}->>'emailId' = ${String(emailId)}`));
}

/**
 * Sends the mail as its job would, directly: test files run in parallel on one database, and
 * running the shared queue would deliver another file's mails to this file's SMTP server.
 */
async function runQueueUntilSent(emailId: number) {
  const db = await getDb();
  for (let i = 0; i < 200; i++) {
    const row = await emailRow(emailId);
    if (row.type === "EM_TE_SENDED") return row;
    await sendMailJob(db, { emailId }).catch(() => {});
    await sleep(25);
  }
  throw new Error(`mail ${emailId} was never sent`);
}

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe("mail delivery", () => {
  it("delivers the alert of a new user through SMTP and marks it EM_TE_SENDED", async () => {
    process.env.SMTP_URL = server.url;
    const admin = await createAdmin();
    const login = unique("newcomer_");
    const email = address();
    const created = await call(userRoute.POST, { method: "POST", token: admin.token, query: { alert: 1 }, body: { login, password: "Welcome-123", email, role: 2 } });
    expect(created.status, created.text).toBe(201);

    const db = await getDb();
    const [outbox] = await db.select().from(emails).where(eq(emails.to, email));
    expect(outbox).toMatchObject({ type: "EM_TE_TOSEND", lastSend: null });
    expect(outbox.content).toContain(login);

    const sent = await runQueueUntilSent(outbox.id);
    const { smtp } = await readStoredConfig(db);
    expect(sent).toMatchObject({ type: "EM_TE_SENDED", from: smtp.smtp_from, attempts: 0, lastError: null });
    expect(Date.now() - sent.lastSend!.getTime()).toBeLessThan(60_000);

    const received = await server.waitFor((m) => m.to.includes(email));
    expect(received.subject).toBe(outbox.object);
    expect(received.text).toContain(`Login: ${login}`);
    expect(received.raw).toMatch(new RegExp(`^From: .*${smtp.smtp_from.replace(/[.]/g, "\\.")}`, "m"));
  });

  it("is idempotent: a sent mail is not sent again", async () => {
    const db = await getDb();
    const to = address();
    const id = await queueMail(db, { to, subject: "Once", text: "only once" });
    await runQueueUntilSent(id);
    await sendMailJob(db, { emailId: id });
    await sendMailJob(db, { emailId: id });
    await sleep(100);
    expect(server.received.filter((m) => m.to.includes(to))).toHaveLength(1);
  });

  it("sends the HTML part along with the text", async () => {
    const db = await getDb();
    const to = address();
    const id = await queueMail(db, { to, subject: "Rich", text: "plain words", html: "<p><b>bold words</b></p>" });
    await runQueueUntilSent(id);
    const received = await server.waitFor((m) => m.to.includes(to));
    expect(received.raw).toContain("multipart/alternative");
    expect(received.raw).toContain("<b>bold words</b>");
    expect(received.raw).toContain("plain words");
  });

  it("records a failure on the mail and rethrows it so the queue retries, then succeeds", async () => {
    const db = await getDb();
    const to = address();
    const id = await queueMail(db, { to, subject: "Retry", text: "eventually" });
    process.env.SMTP_URL = `smtp://127.0.0.1:${await closedPort()}`;
    await expect(sendMailJob(db, { emailId: id })).rejects.toThrow(/ECONNREFUSED/);
    expect(await emailRow(id)).toMatchObject({ type: "EM_TE_TOSEND", attempts: 1, lastError: expect.stringMatching(/ECONNREFUSED/) });

    process.env.SMTP_URL = server.url;
    const sent = await runQueueUntilSent(id);
    expect(sent).toMatchObject({ type: "EM_TE_SENDED", attempts: 1, lastError: null });
    await server.waitFor((m) => m.to.includes(to));
  });

  it("keeps mails in the outbox without SMTP and queues them again once SMTP is configured", async () => {
    const db = await getDb();
    delete process.env.SMTP_URL;
    forgetCachedConfig();
    const before = (await readStoredConfig(db)).smtp;
    expect(before.smtp_host).toBe("");

    const to = address();
    const id = await queueMail(db, { to, subject: "Waiting", text: "for a server" });
    await sendMailJob(db, { emailId: id });
    expect(await emailRow(id)).toMatchObject({ type: "EM_TE_TOSEND", attempts: 0, lastSend: null });
    // The worker's pass over the job finishes it without sending.
    await db.update(jobs).set({ status: "done" }).where(inArray(jobs.id, (await jobsOf(id)).map((j) => j.id)));
    const [lastJob] = await db.select({ id: jobs.id }).from(jobs).orderBy(desc(jobs.id)).limit(1);

    const admin = await createAdmin();
    try {
      const res = await call(configRoute.PUT, { method: "PUT", token: admin.token, body: { smtp: { smtp_host: "127.0.0.1", smtp_port: server.port } } });
      expect(res.status, res.text).toBe(200);
      const requeued = (await jobsOf(id)).filter((j) => j.id > lastJob.id);
      expect(requeued).toHaveLength(1);
      const [entry] = await db.select().from(logs).where(and(eq(logs.userId, admin.id), eq(logs.type, "ADMLLOG_CONFIG"), like(logs.message, "%waiting mails queued%")));
      expect(entry).toBeDefined();

      const sent = await runQueueUntilSent(id);
      expect(sent.type).toBe("EM_TE_SENDED");
      const received = await server.waitFor((m) => m.to.includes(to));
      expect(received.text).toContain("for a server");
    } finally {
      await call(configRoute.PUT, { method: "PUT", token: admin.token, body: { smtp: { smtp_host: before.smtp_host, smtp_port: before.smtp_port } } });
    }
  });

  it("ignores payloads naming no outbox mail", async () => {
    const db = await getDb();
    await expect(sendMailJob(db, { emailId: "nope" })).resolves.toBeUndefined();
    await expect(sendMailJob(db, { emailId: 2_000_000_000 })).resolves.toBeUndefined();
  });
});
