import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as authRoute from "@/app/api/auth/route";
import * as createRoute from "@/app/api/invite/route";
import * as keyRoute from "@/app/api/invite/key/[key]/route";
import * as rootRoute from "@/app/api/root/[type]/route";
import { getDb } from "@/db";
import { folders, rights, users } from "@/db/schema";
import { invitationPreviewResponse } from "@/lib/contracts/invitations";
import { userResponse } from "@/lib/contracts/users";
import { forgetCachedConfig } from "@/lib/server/config/platform-config";
import { completeInvitation } from "@/lib/server/invitations/complete-invitation";
import { sendMailJob } from "@/lib/server/mail/send-mail-job";
import { latestLog, unique } from "../../helpers/factories";
import { ctxIn, inRolledBackTransaction, OPEN_TIMEOUT, openDatabase, setConfigIn } from "../../helpers/file-ops-factories";
import { grantRight } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp";
import { address, createInvitation, expireInvitation, invitationScene, outboxMailTo, storedInvitation } from "./scene";

let smtp: TestSmtpServer;
const savedSmtpUrl = process.env.SMTP_URL;
beforeAll(async () => {
  await openDatabase();
  smtp = await startSmtpServer();
}, OPEN_TIMEOUT);
afterAll(async () => {
  if (savedSmtpUrl === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = savedSmtpUrl;
  forgetCachedConfig();
  await smtp.close();
});

const PASSWORD = "Invited-pass-42";
const preview = (key: string) => call(keyRoute.GET, { path: `/api/invite/key/${key}`, params: { key } });
const complete = (key: string, body: unknown) => call(keyRoute.POST, { method: "POST", path: `/api/invite/key/${key}`, params: { key }, body });
const account = (fields: Record<string, string> = {}) => ({ login: unique("invited_"), password: PASSWORD, firstname: "Marie", lastname: "Curie", ...fields });

async function signIn(login: string, password: string) {
  const res = await call(authRoute.POST, { method: "POST", path: "/api/auth", body: { user: login, password } });
  expect(res.status, res.text).toBe(200);
  return res.body.token as string;
}

async function sharedFolders(token: string) {
  const res = await call(rootRoute.GET, { path: "/api/root/shared", params: { type: "shared" }, token });
  expect(res.status, res.text).toBe(200);
  return res.body.content.folders as Record<string, unknown>[];
}

describe("the invitation journey", () => {
  it("mails the link over SMTP; the key creates an external account that signs in and sees the folder with exactly the invited rights", async () => {
    process.env.SMTP_URL = smtp.url;
    const { owner, folder } = await invitationScene();
    const target = address();
    const created = await call(createRoute.POST, { method: "POST", path: "/api/invite", token: owner.token, body: { target, folder: folder.id, rights: 1 | 2 | 4 } });
    expect(created.status, created.text).toBe(201);
    // Delivered now rather than by a worker: the job of another test file could pick it up first.
    await sendMailJob(await getDb(), { emailId: (await outboxMailTo(target)).id });
    const mail = await smtp.waitFor((m) => m.to.includes(target));
    const link = mail.text.match(/https?:\/\/\S+\/invite\/([A-Za-z0-9_-]+)/);
    expect(link, mail.text).not.toBeNull();
    const key = link![1];
    expect(key).toBe(created.body.key);

    const shown = await preview(key);
    expect(shown.status, shown.text).toBe(200);
    expect(invitationPreviewResponse.parse(shown.body)).toEqual({ email: target, folder_name: folder.name, source_name: `Test ${owner.login}`, expiration: null });

    const fields = account();
    const done = await complete(key, fields);
    expect(done.status, done.text).toBe(201);
    const user = userResponse.parse(done.body);
    expect(user).toMatchObject({ login: fields.login, email: target, firstname: "Marie", lastname: "Curie", role: 1, roots: [] });
    expect(await storedInvitation(created.body.id)).toMatchObject({ targetId: Number(user.id) });
    expect((await storedInvitation(created.body.id)).usedAt).toBeInstanceOf(Date);
    expect((await latestLog("user", user.id))?.type).toBe("ADMLLOG_INSERT");
    expect((await latestLog("invitation", created.body.id))?.type).toBe("ADMLLOG_UPDATE");
    const db = await getDb();
    const [right] = await db.select().from(rights).where(eq(rights.targetId, Number(user.id)));
    expect(right).toMatchObject({ folderId: folder.id, browse: true, read: true, download: true, write: true, edit: false, delete: false, share: false, createdBy: owner.id });

    const token = await signIn(fields.login, PASSWORD);
    const shared = await sharedFolders(token);
    expect(shared.map((f) => f.id)).toEqual([folder.id]);
    expect(shared[0]).toMatchObject({ can_read: true, can_download: true, can_write: true, can_edit: false, can_delete: false, can_share: false });

    // The key works once, and the address now belongs to an account.
    expectError(await preview(key), 410, "invitation_used");
    expectError(await complete(key, account()), 410, "invitation_used");
    expectError(await call(createRoute.POST, { method: "POST", token: owner.token, body: { target, folder: folder.id, rights: 1 } }), 409, "conflict");
  });
});

describe("GET /api/invite/key/(key)", () => {
  it("is a 404 for an unknown key and a 410 for an expired one", async () => {
    const { owner, folder } = await invitationScene();
    expectError(await preview("x".repeat(32)), 404, "not_found");
    expectError(await preview("x".repeat(300)), 400, "invalid_request");
    const invitation = await createInvitation(owner, folder.id);
    await expireInvitation(invitation.id);
    expectError(await preview(invitation.key), 410, "invitation_expired");
  });

  it("is a 404 once the folder is in the trash", async () => {
    const { owner, folder } = await invitationScene();
    const invitation = await createInvitation(owner, folder.id);
    const db = await getDb();
    await db.update(folders).set({ deletedAt: new Date() }).where(eq(folders.id, folder.id));
    expectError(await preview(invitation.key), 404, "not_found");
  });
});

describe("POST /api/invite/key/(key)", () => {
  it("refuses bad bodies (400), weak passwords (403) and taken logins (409) without using the key", async () => {
    const { owner, sharer, folder } = await invitationScene();
    const invitation = await createInvitation(owner, folder.id);
    expectError(await complete(invitation.key, { password: PASSWORD }), 400, "invalid_request");
    expectError(await complete(invitation.key, account({ login: "two words" })), 400, "invalid_request");
    expectError(await complete(invitation.key, account({ password: "short" })), 403, "weak_password");
    const taken = await complete(invitation.key, account({ login: sharer.login.toUpperCase() }));
    expectError(taken, 409, "conflict");
    expect((await storedInvitation(invitation.id)).usedAt).toBeNull();
    expect((await complete(invitation.key, account())).status).toBe(201);
  });

  it("is a 404 for an unknown key, a 410 for an expired one, and creates no account", async () => {
    const { owner, folder } = await invitationScene();
    const invitation = await createInvitation(owner, folder.id);
    await expireInvitation(invitation.id);
    const fields = account();
    expectError(await complete(invitation.key, fields), 410, "invitation_expired");
    expectError(await complete("y".repeat(32), fields), 404, "not_found");
    const db = await getDb();
    expect(await db.select().from(users).where(eq(users.login, fields.login))).toEqual([]);
  });

  it("lets exactly one of two simultaneous completions through", async () => {
    const { owner, folder } = await invitationScene();
    const invitation = await createInvitation(owner, folder.id);
    const results = await Promise.all([complete(invitation.key, account()), complete(invitation.key, account())]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 410]);
    expect(results.find((r) => r.status === 410)?.body.code).toBe("invitation_used");
    const db = await getDb();
    expect(await db.select().from(rights).where(eq(rights.folderId, folder.id))).toHaveLength(3);
  });

  it("is a 403 when the inviter no longer holds the rights of the invitation, and creates no account", async () => {
    const { sharer, folder } = await invitationScene();
    const invitation = await createInvitation(sharer, folder.id, { rights: 1 | 4 });
    await grantRight(folder.id, sharer.id, { read: true, share: true });
    const fields = account();
    expectError(await complete(invitation.key, fields), 403, "forbidden");
    const db = await getDb();
    expect(await db.select().from(users).where(eq(users.login, fields.login))).toEqual([]);
    expect((await storedInvitation(invitation.id)).usedAt).toBeNull();
  });

  it("is a 403 while the platform's invitations feature is off", async () => {
    const { owner, folder } = await invitationScene();
    const invitation = await createInvitation(owner, folder.id);
    await inRolledBackTransaction(async (tx) => {
      await setConfigIn(tx, { features: { invitations: false } });
      await expect(completeInvitation(ctxIn(tx, owner), invitation.key, account())).rejects.toMatchObject({ status: 403, code: "forbidden" });
    });
    expect((await storedInvitation(invitation.id)).usedAt).toBeNull();
  });
});
