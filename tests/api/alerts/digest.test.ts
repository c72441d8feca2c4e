import { Readable } from "node:stream";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as annotationRoute from "@/app/api/annotation/route";
import * as createRoute from "@/app/api/alert/route";
import { getDb, type Db, type Tx } from "@/db";
import { alertChanges, alerts, emails, jobs } from "@/db/schema";
import { alertDigestJob } from "@/lib/server/alerts/digest-job";
import { forgetCachedConfig } from "@/lib/server/config/platform-config";
import { commitUpload } from "@/lib/server/files/commit-upload";
import { deleteFile } from "@/lib/server/files/delete-file";
import { deleteFolder } from "@/lib/server/folders/delete-folder";
import { runDueJobs } from "@/lib/server/jobs/worker";
import { sendMailJob } from "@/lib/server/mail/send-mail-job";
import { getBlobStore } from "@/lib/storage";
import { createTestGroup, createTestUser, type TestUser } from "../../helpers/factories";
import { ctxIn, inRolledBackTransaction, OPEN_TIMEOUT, openDatabase, setConfigIn } from "../../helpers/file-ops-factories";
import { allRightsBut, createFolder, ctxFor, grantRight, uploadText } from "../../helpers/files";
import { call } from "../../helpers/http";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp";

// SMTP_URL and BASE_URL are set in this worker only. Digest jobs are run by calling the handler
// for one recipient (other test files share the queue); one test goes through the queue itself.

const APP = "https://coffre.example";
let server: TestSmtpServer;
const saved = { smtp: process.env.SMTP_URL, base: process.env.BASE_URL, delay: process.env.ALERT_DIGEST_SECONDS };
beforeAll(async () => {
  await openDatabase();
  server = await startSmtpServer();
  process.env.SMTP_URL = server.url;
  process.env.BASE_URL = APP;
}, OPEN_TIMEOUT);
afterEach(() => {
  process.env.ALERT_DIGEST_SECONDS = saved.delay;
  if (saved.delay === undefined) delete process.env.ALERT_DIGEST_SECONDS;
});
afterAll(async () => {
  for (const [name, value] of [["SMTP_URL", saved.smtp], ["BASE_URL", saved.base]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  forgetCachedConfig();
  await server.close();
});

/** `owner` holds a followed folder with a subfolder; `follower` may read it and follows it. */
async function scene(options: { language?: string } = {}) {
  const owner = await createTestUser();
  const follower = await createTestUser({ language: options.language ?? "en" });
  const folder = await createFolder(owner, owner.privateRootId!, "Projects");
  const sub = await createFolder(owner, folder.id, "Drafts");
  await grantRight(folder.id, follower.id, allRightsBut("share"));
  await follow(follower, folder.id);
  return { owner, follower, folder, sub };
}

async function follow(by: TestUser, folderId: number, targetId = by.id, extra: Record<string, unknown> = {}) {
  const res = await call(createRoute.POST, { method: "POST", token: by.token, body: { folder_id: folderId, target_id: targetId, ...extra } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number };
}

/** The outbox mails queued for a user, newest first. */
async function outboxOf(user: TestUser, db?: Db) {
  return (db ?? (await getDb())).select().from(emails).where(and(eq(emails.to, user.email), eq(emails.type, "EM_TE_TOSEND"))).orderBy(desc(emails.id));
}

const pendingLines = async (user: TestUser) => (await getDb()).select().from(alertChanges).where(eq(alertChanges.recipientId, user.id));

/** Runs the user's digest, then delivers what it queued over SMTP; returns the mails received. */
async function deliverDigest(user: TestUser) {
  const db = await getDb();
  await alertDigestJob(db, { recipientId: user.id });
  for (const mail of await outboxOf(user)) await sendMailJob(db, { emailId: mail.id });
  return server.received.filter((m) => m.to.includes(user.email));
}

describe("alert digests", () => {
  it("mails a follower ONE digest listing three uploads and an annotation, with links", async () => {
    const { owner, follower, folder } = await scene();
    await follow(owner, folder.id);
    const first = await uploadText(owner, folder.id, "plan.txt", "a");
    await uploadText(owner, folder.id, "budget.txt", "b");
    await uploadText(owner, folder.id, "plan.txt", "a2");
    const note = await call(annotationRoute.POST, { method: "POST", token: owner.token, body: { target_id: first.version.id, target_type: "file", text: "see" } });
    expect(note.status, note.text).toBe(201);

    const db = await getDb();
    const queued = await db.select().from(jobs).where(eq(jobs.dedupeKey, `alerts.digest:${follower.id}`));
    expect(queued).toHaveLength(1);
    expect(queued[0].runAt.getTime() - Date.now()).toBeGreaterThan(250_000);
    expect(await pendingLines(follower)).toHaveLength(4);
    // The actor follows too, but is not told about their own changes (self_alert off).
    expect(await pendingLines(owner)).toHaveLength(0);

    const received = await deliverDigest(follower);
    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail.subject).toBe("Coffre: activity in Projects");
    const by = `Test ${owner.login}`;
    expect(mail.text).toContain(`Hello Test ${follower.login},`);
    expect(mail.text).toContain(`- New file "plan.txt" in Projects, by ${by}: ${APP}/files/${folder.id}`);
    expect(mail.text).toContain(`- New file "budget.txt" in Projects, by ${by}`);
    expect(mail.text).toContain(`- New version of "plan.txt" in Projects, by ${by}`);
    expect(mail.text).toContain(`- New comment on "plan.txt" in Projects, by ${by}`);
    expect(mail.raw).toMatch(/text\/html/);
    expect(await pendingLines(follower)).toHaveLength(0);
    // Consumed: running the digest again mails nothing more.
    expect(await deliverDigest(follower)).toHaveLength(1);
  });

  it("covers subfolders and reports deletions of files and folders", async () => {
    const { owner, follower, folder, sub } = await scene();
    const deep = await createFolder(owner, sub.id, "Old");
    const draft = await uploadText(owner, sub.id, "draft.txt", "d");
    const ctx = await ctxFor(owner);
    await deleteFile(ctx, draft.version.id, { trash: true, versions: "all" });
    await deleteFolder(ctx, deep.id, { trash: true });
    const [mail] = await deliverDigest(follower);
    expect(mail.text).toContain(`- New file "draft.txt" in Drafts, by Test ${owner.login}: ${APP}/files/${sub.id}`);
    expect(mail.text).toContain(`- Deleted file "draft.txt" in Drafts`);
    expect(mail.text).toContain(`- Deleted folder "Old" in Drafts`);
    expect(mail.text).toContain(`Open Projects: ${APP}/files/${folder.id}`);
  });

  it("mails each member of a followed group, in their language", async () => {
    const owner = await createTestUser();
    const members = [await createTestUser({ language: "fr" }), await createTestUser()];
    const group = await createTestGroup({ members: members.map((m) => m.id) });
    const folder = await createFolder(owner, owner.privateRootId!, "Equipe");
    await grantRight(folder.id, group.id, { read: true });
    await follow(owner, folder.id, group.id);
    await uploadText(owner, folder.id, "note.txt", "n");
    const [french] = await deliverDigest(members[0]);
    expect(french.subject).toBe("Coffre : du nouveau dans Equipe");
    expect(french.text).toContain(`- Nouveau fichier « note.txt » dans Equipe, par Test ${owner.login} : ${APP}/files/${folder.id}`);
    const [english] = await deliverDigest(members[1]);
    expect(english.text).toContain(`- New file "note.txt" in Equipe`);
  });

  it("mails nobody for an expired alert, nor a follower without the read right", async () => {
    const { owner, follower, folder } = await scene();
    const lapsed = await createTestUser();
    await grantRight(folder.id, lapsed.id, { read: true });
    await follow(lapsed, folder.id, lapsed.id, { expiration_date: "2020-01-01T00:00:00Z" });
    // The owner may set an alert for someone who cannot read the folder: it mails them nothing.
    const outsider = await createTestUser();
    await follow(owner, folder.id, outsider.id);
    await uploadText(owner, folder.id, "one.txt", "1");
    expect(await pendingLines(lapsed)).toHaveLength(0);
    expect(await deliverDigest(lapsed)).toHaveLength(0);
    expect(await deliverDigest(outsider)).toHaveLength(0);
    expect(await pendingLines(outsider)).toHaveLength(0);

    // Read right withdrawn after the change: the digest, which asks the resolver now, drops it.
    expect(await pendingLines(follower)).toHaveLength(1);
    await grantRight(folder.id, follower.id, allRightsBut("read", "share"));
    expect(await deliverDigest(follower)).toHaveLength(0);
    expect(await outboxOf(follower)).toHaveLength(0);
    expect(await pendingLines(follower)).toHaveLength(0);
  });

  it("drops the lines of an alert that expired before its digest ran", async () => {
    const { owner, follower, folder } = await scene();
    await uploadText(owner, folder.id, "late.txt", "l");
    const db = await getDb();
    await db.update(alerts).set({ expirationDate: new Date(Date.now() - 1000) }).where(and(eq(alerts.folderId, folder.id), eq(alerts.targetId, follower.id)));
    expect(await deliverDigest(follower)).toHaveLength(0);
    expect(await pendingLines(follower)).toHaveLength(0);
  });

  it("tells the actor about their own changes when the platform option self_alert is on", async () => {
    const { owner, folder } = await scene();
    await follow(owner, folder.id);
    await inRolledBackTransaction(async (tx) => {
      await setConfigIn(tx, { self_alert: true });
      await uploadInto(tx, owner, folder.id);
      await alertDigestJob(tx as unknown as Db, { recipientId: owner.id });
      const [mail] = await outboxOf(owner, tx as unknown as Db);
      expect(mail?.content).toContain(`- New file "mine.txt" in Projects, by Test ${owner.login}`);
    });
  });

  it("uses the alert's custom EM_TE_ALERT template", async () => {
    const { owner, follower, folder } = await scene();
    const db = await getDb();
    const [template] = await db
      .insert(emails)
      .values({ type: "EM_TE_ALERT", object: "[{{platform}}] {{count}} in {{folder}}", content: "Hi {{recipient}}!\n{{changes}}\nGo: {{link}}", ownerId: follower.id })
      .returning();
    await follow(follower, folder.id, follower.id, { email: template.id });
    await uploadText(owner, folder.id, "custom.txt", "c");
    const [mail] = await deliverDigest(follower);
    expect(mail.subject).toBe("[Coffre] 1 in Projects");
    expect(mail.text).toContain(`Hi Test ${follower.login}!`);
    expect(mail.text).toContain(`- New file "custom.txt" in Projects`);
    expect(mail.text).toContain(`Go: ${APP}/files/${folder.id}`);
  });

  it("runs through the job queue after ALERT_DIGEST_SECONDS", async () => {
    process.env.ALERT_DIGEST_SECONDS = "0";
    const { owner, follower, folder } = await scene();
    await uploadText(owner, folder.id, "queued.txt", "q");
    const db = await getDb();
    for (let i = 0; i < 50 && (await outboxOf(follower)).length === 0; i++) await runDueJobs(db, ["alerts.digest"]);
    const [mail] = await outboxOf(follower);
    expect(mail.content).toContain(`- New file "queued.txt" in Projects`);
    const [job] = await db.select().from(jobs).where(eq(jobs.dedupeKey, `alerts.digest:${follower.id}`));
    expect(job.status).toBe("done");
  });
});

/** An upload made inside `tx` (rolled back with it) through the same service as every upload. */
async function uploadInto(tx: Tx, user: TestUser, folderId: number) {
  const blob = await getBlobStore().put(Readable.from([Buffer.from("mine")]));
  return commitUpload(ctxIn(tx, user), { folderId, name: "mine.txt", blob });
}
