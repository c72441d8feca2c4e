import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as resendRoute from "@/app/api/email/[emailId]/resend/route";
import * as emailsRoute from "@/app/api/emails/route";
import { getDb } from "@/db";
import { emails, jobs } from "@/db/schema";
import { emailResponse } from "@/lib/contracts/emails";
import { sendMailJob } from "@/lib/server/mail/send-mail-job";
import { createAdmin, createTestGroup, createTestUser, latestLog, unique } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp";

let server: TestSmtpServer;
// SMTP_URL wins over the platform configuration and is this process's alone: other test files'
// mails never reach these servers. Each job is run by hand, never through the shared queue.
beforeAll(async () => {
  await getDb();
  server = await startSmtpServer();
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  await server.close();
});

const resend = (token: string, id: number) => call(resendRoute.POST, { method: "POST", token, params: { emailId: String(id) } });

/** A mail the SMTP server refused until its job gave up: the outbox's "failed" state. */
async function failedMail() {
  const db = await getDb();
  const to = `${unique("to_")}@example.test`;
  const [mail] = await db.insert(emails).values({ type: "EM_TE_TOSEND", object: unique("Subject "), content: "Hello", to }).returning();
  process.env.SMTP_URL = "smtp://127.0.0.1:1";
  await expect(sendMailJob(db, { emailId: mail.id })).rejects.toThrow();
  const [job] = await db.insert(jobs).values({ kind: "mail.send", payload: { emailId: mail.id }, status: "failed", attempts: 5, lastError: "connect ECONNREFUSED" }).returning();
  return { mail, job, to };
}

const mailJobs = async (emailId: number) =>
  (await getDb()).select().from(jobs).where(and(eq(jobs.kind, "mail.send"), sql`${jobs.payload}->>'emailId' = ${String(emailId)}`));

describe("POST /api/email/(id)/resend", () => {
  it("shows a failed mail's error in the outbox, then sends it again", async () => {
    const admin = await createAdmin();
    const { mail, job, to } = await failedMail();
    const listed = await call(emailsRoute.GET, { path: "/api/emails", token: admin.token, query: { type: "EM_TE_TOSEND", nb_objects: 1000 } });
    const shown = emailResponse.parse(listed.body.objects.find((e: { id: number }) => e.id === mail.id));
    expect(shown.attempts).toBe(1);
    expect(shown.last_error).toMatch(/ECONNREFUSED/);

    const res = await resend(admin.token, mail.id);
    expect(res.status, res.text).toBe(200);
    expect(emailResponse.parse(res.body)).toMatchObject({ id: mail.id, type: "EM_TE_TOSEND", attempts: 0 });
    const queued = await mailJobs(mail.id);
    expect(queued.map((j) => j.status)).toEqual(["pending"]);
    expect(queued[0].id).not.toBe(job.id);
    expect(await latestLog("email", mail.id)).toMatchObject({ type: "ADMLLOG_UPDATE", userId: admin.id });

    process.env.SMTP_URL = server.url;
    await sendMailJob(await getDb(), queued[0].payload as Record<string, unknown>);
    expect((await server.waitFor((m) => m.to.includes(to))).subject).toBe(mail.object);
    const [sent] = await (await getDb()).select().from(emails).where(eq(emails.id, mail.id));
    expect(sent).toMatchObject({ type: "EM_TE_SENDED", lastError: null });
    expectError(await resend(admin.token, mail.id), 409, "conflict");
  });

  it("does not queue a second delivery while one is waiting: it runs now instead", async () => {
    const admin = await createAdmin();
    const db = await getDb();
    const [mail] = await db.insert(emails).values({ type: "EM_TE_TOSEND", object: "Waiting", content: "x", to: "w@example.test" }).returning();
    const [waiting] = await db.insert(jobs).values({ kind: "mail.send", payload: { emailId: mail.id }, status: "pending", attempts: 2, runAt: new Date(Date.now() + 3_600_000) }).returning();
    expect((await resend(admin.token, mail.id)).status).toBe(200);
    const queued = await mailJobs(mail.id);
    expect(queued.map((j) => j.id)).toEqual([waiting.id]);
    expect(queued[0].runAt.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("is a 409 for a template, 404 unknown, and for administrators only", async () => {
    const admin = await createAdmin();
    const db = await getDb();
    const [template] = await db.insert(emails).values({ type: "EM_TE_ALERT", object: "T", content: "x", ownerId: admin.id }).returning();
    expectError(await resend(admin.token, template.id), 409, "conflict");
    expectError(await resend(admin.token, 2_000_000_000), 404, "not_found");
    const user = await createTestUser();
    const [own] = await db.insert(emails).values({ type: "EM_TE_TOSEND", object: "Own", content: "x", to: "o@example.test", ownerId: user.id }).returning();
    await expectAuthRequired(resendRoute.POST, { method: "POST", params: { emailId: String(own.id) } });
    const manager = await createTestUser({ role: 4 });
    await createTestGroup({ managers: [manager.id], members: [user.id] });
    for (const who of [user, manager]) expectError(await resend(who.token, own.id), 403, "forbidden");
    expect(await mailJobs(own.id)).toEqual([]);
  });
});
