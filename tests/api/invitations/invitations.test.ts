import { beforeAll, describe, expect, it } from "vitest";
import * as oneRoute from "@/app/api/invite/[invitationId]/route";
import * as keyRoute from "@/app/api/invite/key/[key]/route";
import * as createRoute from "@/app/api/invite/route";
import * as usersRoute from "@/app/api/invite/users/[folderId]/route";
import * as folderListRoute from "@/app/api/invites/[folderId]/route";
import * as listRoute from "@/app/api/invites/route";
import { invitableUserResponse, invitationResponse } from "@/lib/contracts/invitations";
import { createInvitation as createInvitationService } from "@/lib/server/invitations/create-invitation";
import { createAdmin, createTestUser, latestLog, unique } from "../../helpers/factories";
import { ctxIn, inRolledBackTransaction, OPEN_TIMEOUT, openDatabase, setConfigIn } from "../../helpers/file-ops-factories";
import { grantRight } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { ALL_MASK, address, createInvitation, expireInvitation, invitationScene, invite, markInvitationUsed, outboxMailTo, storedInvitation } from "./scene";

beforeAll(openDatabase, OPEN_TIMEOUT);

const list = (token: string) => call(listRoute.GET, { path: "/api/invites", token });
const listFolder = (token: string, folderId: number) => call(folderListRoute.GET, { path: `/api/invites/${folderId}`, token, params: { folderId: String(folderId) } });
const update = (token: string, id: string | number, body: unknown) => call(oneRoute.PUT, { method: "PUT", token, params: { invitationId: String(id) }, body });
const remove = (token: string, id: string | number) => call(oneRoute.DELETE, { method: "DELETE", token, params: { invitationId: String(id) } });
const invitable = (token: string, folderId: number, query: Record<string, string>) =>
  call(usersRoute.GET, { path: `/api/invite/users/${folderId}`, token, params: { folderId: String(folderId) }, query });

const inOneWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString();

describe("POST /api/invite", () => {
  it("invites an address: 201 Invitation with a long random key, a log, and a mail carrying the link", async () => {
    const { owner, folder } = await invitationScene();
    const target = address();
    const expiration = inOneWeek();
    const res = await invite(owner.token, { target: target.toUpperCase(), folder: folder.id, rights: 1 | 2 | 32, expiration });
    expect(res.status, res.text).toBe(201);
    const body = invitationResponse.parse(res.body);
    expect(body).toMatchObject({ email: target, folder: folder.id, rights: 35, source: String(owner.id), source_name: `Test ${owner.login}`, target: null, used_at: null });
    expect(body.expiration).toBe(expiration);
    // 32 base64url characters: 192 random bits.
    expect(body.key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(await storedInvitation(body.id)).toMatchObject({ email: target, folderId: folder.id, sourceId: owner.id, targetId: null });
    expect((await latestLog("invitation", body.id))?.type).toBe("ADMLLOG_INSERT");

    const mail = await outboxMailTo(target);
    expect(mail).toMatchObject({ type: "EM_TE_TOSEND", ownerId: owner.id });
    expect(mail.object).toContain(folder.name);
    expect(mail.content).toContain(`/invite/${body.key}`);
    expect(mail.html).toContain(`/invite/${body.key}`);
  });

  it("accepts unix seconds and no expiration, and writes French mails for French inviters", async () => {
    const { folder } = await invitationScene();
    const french = await createTestUser({ language: "fr" });
    await grantRight(folder.id, french.id, { read: true, share: true });
    const never = await createInvitation(french, folder.id, { rights: 1, expiration: null });
    expect((await storedInvitation(never.id)).expiration).toBeNull();
    expect((await outboxMailTo(never.email)).content).toContain("sans limite");
    const seconds = Math.floor(Date.now() / 1000) + 3600;
    const timed = await createInvitation(french, folder.id, { rights: 1, expiration: seconds });
    expect((await storedInvitation(timed.id)).expiration?.getTime()).toBe(seconds * 1000);
  });

  it("refuses invalid bodies (400)", async () => {
    const { owner, folder } = await invitationScene();
    const ok = { target: address(), folder: folder.id, rights: 1 };
    for (const bad of [
      { ...ok, target: "not-an-address" },
      { ...ok, rights: 0 },
      { ...ok, rights: 64 },
      { ...ok, rights: 1.5 },
      { ...ok, folder: undefined },
      { ...ok, expiration: "yesterday" },
      { ...ok, expiration: new Date(Date.now() - 1000).toISOString() },
    ]) {
      expectError(await invite(owner.token, bad), 400, "invalid_request");
    }
  });

  it("is a 404 for an unknown folder or one the caller cannot browse", async () => {
    const { stranger, folder } = await invitationScene();
    expectError(await invite(stranger.token, { target: address(), folder: folder.id, rights: 1 }), 404, "not_found");
    expectError(await invite(stranger.token, { target: address(), folder: 2_000_000_000, rights: 1 }), 404, "not_found");
  });

  it("needs the share right, and never gives more than the inviter holds (403)", async () => {
    const { reader, sharer, folder } = await invitationScene();
    const target = address();
    expectError(await invite(reader.token, { target, folder: folder.id, rights: 1 }), 403, "forbidden");
    // sharer lacks exactly delete (16).
    expectError(await invite(sharer.token, { target, folder: folder.id, rights: 1 | 16 }), 403, "forbidden");
    expect(await outboxMailTo(target)).toBeUndefined();
    await createInvitation(sharer, folder.id, { target, rights: ALL_MASK & ~16 });
  });

  it("is a 409 for an address of a live account, and for a second pending invitation", async () => {
    const { owner, reader, folder } = await invitationScene();
    const existing = await invite(owner.token, { target: reader.email.toUpperCase(), folder: folder.id, rights: 1 });
    expectError(existing, 409, "conflict");
    expect(existing.body.details).toEqual({ user_id: String(reader.id) });

    const first = await createInvitation(owner, folder.id);
    const again = await invite(owner.token, { target: first.email, folder: folder.id, rights: 1 });
    expectError(again, 409, "conflict");
    expect(again.body.details).toEqual({ invitation_id: first.id });
    // Once the first has expired, a new one may be sent.
    await expireInvitation(first.id);
    await createInvitation(owner, folder.id, { target: first.email });
  });

  it("is refused when the platform's invitations feature is off (403)", async () => {
    const { owner, folder } = await invitationScene();
    const target = address();
    await inRolledBackTransaction(async (tx) => {
      await setConfigIn(tx, { features: { invitations: false } });
      await expect(createInvitationService(ctxIn(tx, owner), { target, folder: folder.id, rights: 1 }, "http://coffre.test")).rejects.toMatchObject({ status: 403, code: "forbidden" });
    });
    expect(await outboxMailTo(target)).toBeUndefined();
  });

  it("requires a valid token", async () => {
    const { folder } = await invitationScene();
    await expectAuthRequired(createRoute.POST, { method: "POST", body: { target: address(), folder: folder.id, rights: 1 } });
  });
});

describe("GET /api/invites and /api/invites/(folderId)", () => {
  it("lists the caller's own invitations; administrators see everyone's", async () => {
    const { owner, sharer, folder } = await invitationScene();
    const mine = await createInvitation(owner, folder.id);
    const theirs = await createInvitation(sharer, folder.id);
    const res = await list(owner.token);
    expect(res.status, res.text).toBe(200);
    const ids = invitationResponse.array().parse(res.body).map((i) => i.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    const admin = await createAdmin();
    const all = (await list(admin.token)).body.map((i: { id: string }) => i.id);
    expect(all).toEqual(expect.arrayContaining([mine.id, theirs.id]));
  });

  it("lists a folder's invitations, newest first, for holders of the share right", async () => {
    const { owner, sharer, folder } = await invitationScene();
    const first = await createInvitation(owner, folder.id);
    const second = await createInvitation(sharer, folder.id);
    const res = await listFolder(sharer.token, folder.id);
    expect(res.status, res.text).toBe(200);
    expect(invitationResponse.array().parse(res.body).map((i) => i.id)).toEqual([second.id, first.id]);
  });

  it("is a 403 without the share right, a 404 without access or for an unknown folder, a 400 for a bad id", async () => {
    const { reader, stranger, owner, folder } = await invitationScene();
    expectError(await listFolder(reader.token, folder.id), 403, "forbidden");
    expectError(await listFolder(stranger.token, folder.id), 404, "not_found");
    expectError(await listFolder(owner.token, 2_000_000_000), 404, "not_found");
    expectError(await call(folderListRoute.GET, { token: owner.token, params: { folderId: "abc" } }), 400, "invalid_request");
  });

  it("requires a valid token", async () => {
    const { folder } = await invitationScene();
    await expectAuthRequired(listRoute.GET, {});
    await expectAuthRequired(folderListRoute.GET, { params: { folderId: String(folder.id) } });
  });
});

describe("PUT /api/invite/(invitationId)", () => {
  it("changes rights and expiration (inviter, or another holder of the share right) and logs it", async () => {
    const { owner, sharer, folder } = await invitationScene();
    const invitation = await createInvitation(owner, folder.id, { rights: 1 });
    const expiration = inOneWeek();
    const res = await update(owner.token, invitation.id, { rights: 1 | 2 | 4, expiration });
    expect(res.status, res.text).toBe(200);
    expect(invitationResponse.parse(res.body)).toMatchObject({ id: invitation.id, rights: 7, expiration });
    expect((await latestLog("invitation", invitation.id))?.type).toBe("ADMLLOG_UPDATE");
    const cleared = await call(oneRoute.PATCH, { method: "PATCH", token: sharer.token, params: { invitationId: invitation.id }, body: { expiration: null } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({ rights: 7, expiration: null });
  });

  it("refuses bad bodies (400), unknown ids (404), used invitations (409)", async () => {
    const { owner, folder } = await invitationScene();
    const invitation = await createInvitation(owner, folder.id);
    expectError(await update(owner.token, invitation.id, {}), 400, "invalid_request");
    expectError(await update(owner.token, invitation.id, { rights: 0 }), 400, "invalid_request");
    expectError(await update(owner.token, invitation.id, { expiration: "2001-01-01T00:00:00Z" }), 400, "invalid_request");
    expectError(await update(owner.token, 2_000_000_000, { rights: 1 }), 404, "not_found");
    await markInvitationUsed(invitation.id, owner.id);
    expectError(await update(owner.token, invitation.id, { rights: 1 }), 409, "conflict");
  });

  it("is a 403 without the share right or beyond the caller's rights, a 404 for users without access", async () => {
    const { owner, sharer, reader, stranger, folder } = await invitationScene();
    const invitation = await createInvitation(owner, folder.id, { rights: 1 });
    expectError(await update(reader.token, invitation.id, { rights: 3 }), 403, "forbidden");
    expectError(await update(sharer.token, invitation.id, { rights: 16 }), 403, "forbidden");
    expectError(await update(stranger.token, invitation.id, { rights: 3 }), 404, "not_found");
    expect((await storedInvitation(invitation.id)).rights).toBe(1);
  });

  it("requires a valid token", async () => {
    const { owner, folder } = await invitationScene();
    const invitation = await createInvitation(owner, folder.id);
    await expectAuthRequired(oneRoute.PUT, { method: "PUT", params: { invitationId: invitation.id }, body: { rights: 1 } });
  });
});

describe("DELETE /api/invite/(invitationId)", () => {
  it("lets the inviter, a holder of the share right or an administrator withdraw it (204), with a log", async () => {
    const { owner, sharer, folder } = await invitationScene();
    const admin = await createAdmin();
    for (const who of [owner, sharer, admin]) {
      const invitation = await createInvitation(owner, folder.id);
      const res = await remove(who.token, invitation.id);
      expect(res.status, res.text).toBe(204);
      expect(await storedInvitation(invitation.id)).toBeUndefined();
      expect((await latestLog("invitation", invitation.id))?.type).toBe("ADMLLOG_DELETE");
      expectError(await call(keyRoute.GET, { params: { key: invitation.key } }), 404, "not_found");
    }
  });

  it("lets an inviter who lost the folder withdraw their invitation, but no longer change it", async () => {
    const { sharer, folder } = await invitationScene();
    const invitation = await createInvitation(sharer, folder.id);
    await grantRight(folder.id, sharer.id, { browse: false });
    expectError(await update(sharer.token, invitation.id, { rights: 1 }), 403, "forbidden");
    expect((await remove(sharer.token, invitation.id)).status).toBe(204);
  });

  it("is a 403 without the share right, a 404 without access or for an unknown id", async () => {
    const { owner, reader, stranger, folder } = await invitationScene();
    const invitation = await createInvitation(owner, folder.id);
    expectError(await remove(reader.token, invitation.id), 403, "forbidden");
    expectError(await remove(stranger.token, invitation.id), 404, "not_found");
    expectError(await remove(owner.token, 2_000_000_000), 404, "not_found");
    expect(await storedInvitation(invitation.id)).toBeDefined();
  });

  it("requires a valid token", async () => {
    const { owner, folder } = await invitationScene();
    const invitation = await createInvitation(owner, folder.id);
    await expectAuthRequired(oneRoute.DELETE, { method: "DELETE", params: { invitationId: invitation.id } });
  });
});

describe("GET /api/invite/users/(folderId)", () => {
  it("finds live accounts by login, name or address, leaving out those with a right here, owners and administrators", async () => {
    const { owner, sharer, folder } = await invitationScene();
    const tag = unique("zq");
    const byLogin = await createTestUser({ login: `${tag}_login` });
    const byName = await createTestUser({ firstname: "Ada", lastname: `${tag} Lovelace` });
    const byEmail = await createTestUser({ email: `first@example.test, ${tag}@example.test` });
    const withRight = await createTestUser({ login: `${tag}_right` });
    await grantRight(folder.id, withRight.id, { read: true });
    await createTestUser({ login: `${tag}_gone`, deletedAt: new Date() });
    await createAdmin({ login: `${tag}_admin` });

    const res = await invitable(sharer.token, folder.id, { search: tag.toUpperCase() });
    expect(res.status, res.text).toBe(200);
    const found = invitableUserResponse.array().parse(res.body.objects);
    expect(found.map((u) => u.id).sort()).toEqual([byLogin, byName, byEmail].map((u) => String(u.id)).sort());
    expect(res.body.nb_total_objects).toBe(3);
    expect(found.find((u) => u.id === String(byName.id))?.name).toBe(`Ada ${tag} Lovelace`);
    expect(found.find((u) => u.id === String(byEmail.id))?.emails).toEqual(["first@example.test", `${tag}@example.test`]);

    const paged = await invitable(sharer.token, folder.id, { search: tag, nb_objects: "1", offset_start: "1" });
    expect(paged.body).toMatchObject({ offset_start: 1, nb_objects: 1, nb_total_objects: 3 });
    // The owner of the folder's tree already has everything.
    expect((await invitable(sharer.token, folder.id, { search: owner.login })).body.nb_total_objects).toBe(0);
  });

  it("needs a search of 3 characters or more (400)", async () => {
    const { owner, folder } = await invitationScene();
    expectError(await invitable(owner.token, folder.id, { search: " ab " }), 400, "invalid_request");
    expectError(await invitable(owner.token, folder.id, {}), 400, "invalid_request");
    expectError(await invitable(owner.token, folder.id, { search: "abc", nb_objects: "-1" }), 400, "invalid_request");
  });

  it("is a 403 without the share right, a 404 without access", async () => {
    const { reader, stranger, folder } = await invitationScene();
    expectError(await invitable(reader.token, folder.id, { search: "user_" }), 403, "forbidden");
    expectError(await invitable(stranger.token, folder.id, { search: "user_" }), 404, "not_found");
  });

  it("requires a valid token", async () => {
    const { folder } = await invitationScene();
    await expectAuthRequired(usersRoute.GET, { params: { folderId: String(folder.id) }, query: { search: "user_" } });
  });
});
