import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as oneRoute from "@/app/api/alert/[alertId]/route";
import * as createRoute from "@/app/api/alert/route";
import * as listRoute from "@/app/api/alerts/[folderId]/route";
import { getDb } from "@/db";
import { alerts, emails, folders as foldersTable } from "@/db/schema";
import { presentFolders } from "@/lib/server/folders/present-folders";
import { alertResponse } from "@/lib/contracts/alerts";
import { createAdmin, createTestGroup, createTestUser, latestLog, type TestUser } from "../../helpers/factories";
import { ctxIn, inRolledBackTransaction, OPEN_TIMEOUT, openDatabase, setConfigIn } from "../../helpers/file-ops-factories";
import { allRightsBut, createFolder, ctxFor, grantRight } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { createManagedTeam } from "../users/fixtures";

beforeAll(openDatabase, OPEN_TIMEOUT);

type Query = Record<string, string | number>;
const post = (token: string, body: unknown) => call(createRoute.POST, { path: "/api/alert", method: "POST", token, body });
const at = (id: number) => ({ path: `/api/alert/${id}`, params: { alertId: String(id) } });
const get = (token: string, id: number) => call(oneRoute.GET, { ...at(id), token });
const put = (token: string, id: number, body: unknown, query: Query = {}) => call(oneRoute.PUT, { ...at(id), method: "PUT", token, body, query });
const del = (token: string, id: number, query: Query = {}) => call(oneRoute.DELETE, { ...at(id), method: "DELETE", token, query });
const list = (token: string, folderId: number, query: Query = {}) =>
  call(listRoute.GET, { path: `/api/alerts/${folderId}`, params: { folderId: String(folderId) }, token, query });

/** `owner` holds a folder with a subfolder; `reader` may read (no share), `stranger` has nothing. */
async function scene() {
  const owner = await createTestUser();
  const reader = await createTestUser();
  const stranger = await createTestUser();
  const work = await createFolder(owner, owner.privateRootId!, "Work");
  const sub = await createFolder(owner, work.id, "Sub");
  await grantRight(work.id, reader.id, allRightsBut("share"));
  return { owner, reader, stranger, work, sub };
}

async function follow(user: TestUser, folderId: number, targetId: number = user.id, extra: Record<string, unknown> = {}) {
  const res = await post(user.token, { folder_id: folderId, target_id: String(targetId), ...extra });
  expect(res.status, res.text).toBe(201);
  return alertResponse.strict().parse(res.body);
}

const storedAlert = async (id: number) => (await (await getDb()).select().from(alerts).where(eq(alerts.id, id)))[0];

async function alertTemplate(owner: TestUser) {
  const db = await getDb();
  const [row] = await db.insert(emails).values({ type: "EM_TE_ALERT", object: "News in {{folder}}", content: "{{changes}}", ownerId: owner.id }).returning();
  return row.id;
}

describe("POST /api/alert", () => {
  it("follows a folder with the read right: the contract's fields, the default mail, logged", async () => {
    const { owner, reader, work } = await scene();
    const alert = await follow(reader, work.id);
    expect(alert).toMatchObject({
      folder_id: work.id,
      target_id: reader.id,
      target: `Test ${reader.login}`,
      target_isgroup: false,
      active: true,
      email: -1,
      expiration_date: null,
      owner: `Test ${reader.login}`,
      owner_id: String(reader.id),
    });
    expect(await latestLog("alert", alert.id, "ADMLLOG_INSERT")).toBeTruthy();
    const forGroup = await follow(owner, work.id, (await createTestGroup()).id, { email: -1 });
    expect(forGroup).toMatchObject({ target_isgroup: true, owner_id: String(owner.id) });
  });

  it("creating it again renews the same alert with the fields given (201), and accepts a template", async () => {
    const { reader, work } = await scene();
    const first = await follow(reader, work.id, reader.id, { expiration_date: "2020-01-01T00:00:00Z" });
    expect(first.active).toBe(false);
    const template = await alertTemplate(reader);
    const again = await follow(reader, work.id, reader.id, { expiration_date: 4_102_444_800, email: template });
    expect(again).toMatchObject({ id: first.id, active: true, email: template, expiration_date: "2100-01-01T00:00:00.000Z" });
    expect(await latestLog("alert", first.id, "ADMLLOG_UPDATE")).toBeTruthy();
    const db = await getDb();
    expect(await db.select().from(alerts).where(and(eq(alerts.folderId, work.id), eq(alerts.targetId, reader.id)))).toHaveLength(1);
  });

  it("answers 400 for a bad body, 404 for an unknown or hidden folder, target or template", async () => {
    const { owner, reader, stranger, work } = await scene();
    expectError(await post(owner.token, { target_id: owner.id }), 400, "invalid_request");
    expectError(await post(owner.token, { folder_id: work.id, target_id: owner.id, expiration_date: "soon" }), 400, "invalid_request");
    expectError(await post(owner.token, { folder_id: work.id, target_id: owner.id, email: -5 }), 400, "invalid_request");
    expectError(await post(owner.token, { folder_id: 2_000_000_000, target_id: owner.id }), 404, "not_found");
    expectError(await post(owner.token, { folder_id: work.id, target_id: 2_000_000_000 }), 404, "not_found");
    expectError(await post(stranger.token, { folder_id: work.id, target_id: stranger.id }), 404, "not_found");
    // A template is usable by its owner only (administrators: any).
    expectError(await post(owner.token, { folder_id: work.id, target_id: owner.id, email: await alertTemplate(reader) }), 404, "not_found");
  });

  it("needs a token, the read right to follow, the share right to set an alert for someone else", async () => {
    const { owner, reader, work } = await scene();
    await expectAuthRequired(createRoute.POST, { method: "POST", body: { folder_id: work.id, target_id: owner.id } });
    const noRead = await createTestUser();
    await grantRight(work.id, noRead.id, allRightsBut("read"));
    expectError(await post(noRead.token, { folder_id: work.id, target_id: noRead.id }), 403, "forbidden");
    expectError(await post(reader.token, { folder_id: work.id, target_id: owner.id }), 403, "forbidden");
    expectError(await post(reader.token, { folder_id: work.id, target_id: (await createTestGroup({ members: [reader.id] })).id }), 403, "forbidden");
    const sharer = await createTestUser();
    await grantRight(work.id, sharer.id, { share: true });
    expect((await post(sharer.token, { folder_id: work.id, target_id: reader.id })).status).toBe(201);
    const admin = await createAdmin();
    expect((await post(admin.token, { folder_id: work.id, target_id: owner.id })).status).toBe(201);
  });

  it("lets a manager set alerts for the users of the groups they manage, not for others", async () => {
    const { owner, reader, work } = await scene();
    const { manager, member } = await createManagedTeam();
    await grantRight(work.id, manager.id, { browse: true });
    expect((await post(manager.token, { folder_id: work.id, target_id: member.id })).status).toBe(201);
    expectError(await post(manager.token, { folder_id: work.id, target_id: reader.id }), 403, "forbidden");
    expectError(await post(manager.token, { folder_id: owner.privateRootId!, target_id: member.id }), 404, "not_found");
  });
});

describe("GET /api/alert/(alertId)", () => {
  it("shows an alert to its target, its owner and those with the share right", async () => {
    const { owner, reader, work } = await scene();
    const alert = await follow(reader, work.id);
    for (const who of [reader, owner]) {
      const res = await get(who.token, alert.id);
      expect(res.status, res.text).toBe(200);
      expect(alertResponse.strict().parse(res.body)).toEqual(alert);
    }
    const member = await createTestUser();
    const group = await createTestGroup({ members: [member.id] });
    await grantRight(work.id, member.id, { read: true });
    const groupAlert = await follow(owner, work.id, group.id);
    expect((await get(member.token, groupAlert.id)).body).toMatchObject({ target: group.login, target_isgroup: true });
  });

  it("is a 404 for an unknown alert, one in a hidden folder, or someone else's without the share right", async () => {
    const { owner, reader, stranger, work } = await scene();
    const ownerAlert = await follow(owner, work.id);
    expectError(await get(owner.token, 2_000_000_000), 404, "not_found");
    expectError(await get(stranger.token, ownerAlert.id), 404, "not_found");
    expectError(await get(reader.token, ownerAlert.id), 404, "not_found");
    expectError(await get(owner.token, 0), 400, "invalid_request");
    await expectAuthRequired(oneRoute.GET, at(ownerAlert.id));
  });
});

describe("GET /api/alerts/(folderId)", () => {
  it("lists the folder's alerts, and with recursive those of its subfolders", async () => {
    const { owner, reader, work, sub } = await scene();
    const mine = await follow(owner, work.id);
    const theirs = await follow(reader, work.id);
    const below = await follow(owner, sub.id);
    const res = await list(owner.token, work.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((a: unknown) => alertResponse.strict().parse(a).id)).toEqual([mine.id, theirs.id]);
    expect((await list(owner.token, work.id, { recursive: 1 })).body.map((a: { id: number }) => a.id)).toEqual([mine.id, theirs.id, below.id]);
    expect((await list(owner.token, sub.id)).body.map((a: { id: number }) => a.id)).toEqual([below.id]);
  });

  it("shows a user without the share right only their own alerts and their groups'", async () => {
    const { owner, reader, work } = await scene();
    await follow(owner, work.id);
    const own = await follow(reader, work.id);
    const group = await createTestGroup({ members: [reader.id] });
    const groupAlert = await follow(owner, work.id, group.id);
    expect((await list(reader.token, work.id)).body.map((a: { id: number }) => a.id)).toEqual([own.id, groupAlert.id]);
  });

  it("is a 404 for a folder the caller cannot browse, 400 for a bad id, 401 without a token", async () => {
    const { stranger, work } = await scene();
    expectError(await list(stranger.token, work.id), 404, "not_found");
    expectError(await list(stranger.token, -3), 400, "invalid_request");
    await expectAuthRequired(listRoute.GET, { path: `/api/alerts/${work.id}`, params: { folderId: String(work.id) } });
  });
});

describe("PUT /api/alert/(alertId)", () => {
  it("changes the expiration, the template and active; logged", async () => {
    const { reader, work } = await scene();
    const alert = await follow(reader, work.id);
    const template = await alertTemplate(reader);
    const res = await put(reader.token, alert.id, { expiration_date: "2099-05-01T10:00:00Z", email: template });
    expect(res.status, res.text).toBe(200);
    expect(alertResponse.strict().parse(res.body)).toMatchObject({ id: alert.id, expiration_date: "2099-05-01T10:00:00.000Z", email: template, active: true });
    expect((await put(reader.token, alert.id, { active: false, email: -1 })).body).toMatchObject({ active: false, email: -1 });
    expect((await put(reader.token, alert.id, { ...alert, active: true, expiration_date: null })).body).toMatchObject({ active: true, expiration_date: null });
    expect(await latestLog("alert", alert.id, "ADMLLOG_UPDATE")).toBeTruthy();
  });

  it("with recursive applies the change to that target's alerts on subfolders only", async () => {
    const { owner, reader, work, sub } = await scene();
    const top = await follow(owner, work.id);
    const below = await follow(owner, sub.id);
    const readerBelow = await follow(reader, sub.id);
    const res = await put(owner.token, top.id, { active: false }, { recursive: 1 });
    expect(res.status, res.text).toBe(200);
    expect((await storedAlert(below.id)).active).toBe(false);
    expect((await storedAlert(readerBelow.id)).active).toBe(true);
  });

  it("answers 400 for a changed folder or target or a bad date, 404 unknown or hidden", async () => {
    const { owner, stranger, work, sub } = await scene();
    const alert = await follow(owner, work.id);
    expectError(await put(owner.token, alert.id, { folder_id: sub.id }), 400, "invalid_request");
    expectError(await put(owner.token, alert.id, { target_id: String(stranger.id) }), 400, "invalid_request");
    expectError(await put(owner.token, alert.id, { expiration_date: "later" }), 400, "invalid_request");
    expectError(await put(owner.token, 2_000_000_000, { active: false }), 404, "not_found");
    expectError(await put(stranger.token, alert.id, { active: false }), 404, "not_found");
  });

  it("refuses a group member without the share right, and a follower who lost the read right", async () => {
    const { owner, reader, work, sub } = await scene();
    const group = await createTestGroup({ members: [reader.id] });
    const groupAlert = await follow(owner, work.id, group.id);
    expectError(await put(reader.token, groupAlert.id, { active: false }), 403, "forbidden");
    const own = await follow(reader, work.id);
    await grantRight(work.id, reader.id, allRightsBut("read", "share"));
    expectError(await put(reader.token, own.id, { active: false }), 403, "forbidden");
    // Recursive reaches a subfolder where the caller may not manage the target's alert.
    const sharer = await createTestUser();
    await grantRight(work.id, sharer.id, { read: true, share: true });
    await grantRight(sub.id, sharer.id, allRightsBut("share"));
    const top = await follow(sharer, work.id, owner.id);
    await follow(owner, sub.id);
    expectError(await put(sharer.token, top.id, { active: false }, { recursive: 1 }), 403, "forbidden");
    expect((await storedAlert(top.id)).active).toBe(true);
    await expectAuthRequired(oneRoute.PUT, { ...at(own.id), method: "PUT", body: { active: false } });
  });
});

describe("DELETE /api/alert/(alertId)", () => {
  it("removes an alert (204, logged); with recursive the target's alerts below too, not others'", async () => {
    const { owner, reader, work, sub } = await scene();
    const top = await follow(owner, work.id);
    const below = await follow(owner, sub.id);
    const readerBelow = await follow(reader, sub.id);
    const single = await follow(reader, work.id);
    const res = await del(reader.token, single.id);
    expect(res.status, res.text).toBe(204);
    expect(await storedAlert(single.id)).toBeUndefined();
    expect(await latestLog("alert", single.id, "ADMLLOG_DELETE")).toBeTruthy();
    expect((await del(owner.token, top.id, { recursive: 1 })).status).toBe(204);
    expect(await storedAlert(below.id)).toBeUndefined();
    expect(await storedAlert(readerBelow.id)).toBeTruthy();
  });

  it("lets a follower who lost the read right stop following", async () => {
    const { reader, work } = await scene();
    const own = await follow(reader, work.id);
    await grantRight(work.id, reader.id, { browse: true });
    expect((await del(reader.token, own.id)).status).toBe(204);
  });

  it("refuses a group member without the share right (403), hides others' (404), needs a token", async () => {
    const { owner, reader, stranger, work } = await scene();
    const groupAlert = await follow(owner, work.id, (await createTestGroup({ members: [reader.id] })).id);
    expectError(await del(reader.token, groupAlert.id), 403, "forbidden");
    const ownerAlert = await follow(owner, work.id);
    expectError(await del(reader.token, ownerAlert.id), 404, "not_found");
    expectError(await del(stranger.token, ownerAlert.id), 404, "not_found");
    expectError(await del(owner.token, 2_000_000_000), 404, "not_found");
    await expectAuthRequired(oneRoute.DELETE, { ...at(ownerAlert.id), method: "DELETE" });
    expect(await storedAlert(groupAlert.id)).toBeTruthy();
    expect(await storedAlert(ownerAlert.id)).toBeTruthy();
  });

  it("answers 405 for methods the routes do not implement", async () => {
    expectError(await call(createRoute.GET, { path: "/api/alert" }), 405, "method_not_allowed");
    expectError(await call(listRoute.POST, { method: "POST", path: "/api/alerts/1", params: { folderId: "1" } }), 405, "method_not_allowed");
  });
});

describe("self_alert on folders (full mode)", () => {
  it("says whether the caller follows each folder, and only while the platform option is on", async () => {
    const { owner, work, sub } = await scene();
    await follow(owner, work.id);
    const db = await getDb();
    const rowsOf = await db.select().from(foldersTable).where(inArray(foldersTable.id, [work.id, sub.id])).orderBy(foldersTable.id);
    const off = await presentFolders(await ctxFor(owner), rowsOf, "full");
    expect(off.every((f) => !("self_alert" in f))).toBe(true);
    await inRolledBackTransaction(async (tx) => {
      await setConfigIn(tx, { self_alert: true });
      const on = await presentFolders(ctxIn(tx, owner), rowsOf, "full");
      expect(on.map((f) => [f.id, f.self_alert])).toEqual([
        [work.id, true],
        [sub.id, false],
      ]);
    });
  });
});
