import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as folderRoute from "@/app/api/folder/[folderId]/route";
import * as createRoute from "@/app/api/right/route";
import * as rightRoute from "@/app/api/right/[rightId]/route";
import * as listRoute from "@/app/api/rights/[folderId]/route";
import { getDb } from "@/db";
import { rights } from "@/db/schema";
import { rightResponse } from "@/lib/contracts/rights";
import { createAdmin, createTestGroup, createTestUser } from "../../helpers/factories";
import { allRightsBut, createFolder, grantRight } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { latestLog } from "../users/fixtures";
import { OPEN_TIMEOUT, openDatabase } from "../folders/fixtures";

beforeAll(openDatabase, OPEN_TIMEOUT);

type Query = Record<string, string | number>;
const post = (token: string, body: unknown, query: Query = {}) => call(createRoute.POST, { path: "/api/right", method: "POST", token, body, query });
const atRight = (id: number) => ({ path: `/api/right/${id}`, params: { rightId: String(id) } });
const get = (token: string, id: number) => call(rightRoute.GET, { ...atRight(id), token });
const put = (token: string, id: number, body: unknown, query: Query = {}) => call(rightRoute.PUT, { ...atRight(id), method: "PUT", token, body, query });
const del = (token: string, id: number, query: Query = {}) => call(rightRoute.DELETE, { ...atRight(id), method: "DELETE", token, query });
const list = (token: string, folderId: number) => call(listRoute.GET, { path: `/api/rights/${folderId}`, params: { folderId: String(folderId) }, token });
const readFolder = (token: string, id: number) => call(folderRoute.GET, { path: `/api/folder/${id}`, params: { folderId: String(id) }, token });

async function rightOf(folderId: number, targetId: number) {
  const db = await getDb();
  return (await db.select().from(rights).where(and(eq(rights.folderId, folderId), eq(rights.targetId, targetId))))[0];
}

async function createScene() {
  const owner = await createTestUser();
  const guest = await createTestUser();
  const work = await createFolder(owner, owner.privateRootId!, "Work");
  const sub = await createFolder(owner, work.id, "Sub");
  return { owner, guest, work, sub };
}

describe("POST /api/right", () => {
  it("gives a user a right (omitted flags false) that takes effect, and logs it", async () => {
    const { owner, guest, work } = await createScene();
    expectError(await readFolder(guest.token, work.id), 404);
    const res = await post(owner.token, { folder_id: work.id, target_id: String(guest.id), browse: true, read: true });
    expect(res.status, res.text).toBe(201);
    const right = rightResponse.strict().parse(res.body);
    expect(right).toMatchObject({ folder_id: work.id, target_id: String(guest.id), target: `Test ${guest.login}`, target_isgroup: false, browse: true, read: true, download: false, share: false });
    expect((await readFolder(guest.token, work.id)).body).toMatchObject({ can_read: true, can_write: false });
    expect(await latestLog("right", right.id, "ADMLLOG_INSERT")).toBeTruthy();
  });

  it("gives a group a right that applies to its members, target_isgroup true", async () => {
    const { owner, work } = await createScene();
    const member = await createTestUser();
    const group = await createTestGroup({ members: [member.id] });
    const res = await post(owner.token, { folder_id: work.id, target_id: group.id, browse: true, read: true, write: true });
    expect(res.body).toMatchObject({ target: group.login, target_isgroup: true, write: true });
    expect((await readFolder(member.token, work.id)).body.can_write).toBe(true);
  });

  it("with recursive, sets the same right on every subfolder, replacing the target's own", async () => {
    const { owner, guest, work, sub } = await createScene();
    const deep = await createFolder(owner, sub.id, "Deep");
    await grantRight(sub.id, guest.id, { browse: false });
    const res = await post(owner.token, { folder_id: work.id, target_id: guest.id, browse: true, read: true }, { recursive: 1 });
    expect(res.status, res.text).toBe(201);
    expect(await rightOf(sub.id, guest.id)).toMatchObject({ browse: true, read: true, write: false });
    expect(await rightOf(deep.id, guest.id)).toMatchObject({ browse: true, read: true });
    expect((await readFolder(guest.token, sub.id)).status).toBe(200);
  });

  it("answers 409 for a second right of the same target, 404 for an unknown target or folder", async () => {
    const { owner, guest, work } = await createScene();
    await grantRight(work.id, guest.id, { read: true });
    expectError(await post(owner.token, { folder_id: work.id, target_id: guest.id, read: true }), 409, "conflict");
    expectError(await post(owner.token, { folder_id: work.id, target_id: 2_000_000_000, read: true }), 404, "not_found");
    const gone = await createTestUser({ deletedAt: new Date() });
    expectError(await post(owner.token, { folder_id: work.id, target_id: gone.id, read: true }), 404, "not_found");
    expectError(await post(owner.token, { folder_id: 2_000_000_000, target_id: guest.id }), 404, "not_found");
    expectError(await post(owner.token, { folder_id: work.id, target_id: guest.id, read: "yes" }), 400, "invalid_request");
  });

  it("needs the share right (403; 404 when the folder is hidden) and never grants more than the caller holds", async () => {
    const { owner, guest, work, sub } = await createScene();
    const third = await createTestUser();
    expectError(await post(guest.token, { folder_id: work.id, target_id: third.id, browse: true }), 404, "not_found");
    await grantRight(work.id, guest.id, allRightsBut("share"));
    expectError(await post(guest.token, { folder_id: work.id, target_id: third.id, browse: true, read: true }), 403, "forbidden");
    await grantRight(work.id, guest.id, { read: true, share: true });
    expectError(await post(guest.token, { folder_id: work.id, target_id: third.id, browse: true, write: true }), 403, "forbidden");
    expect((await post(guest.token, { folder_id: work.id, target_id: third.id, browse: true, read: true })).status).toBe(201);
    // Recursive grants need the right on every subfolder too.
    await grantRight(sub.id, guest.id, { read: true });
    const fourth = await createTestUser();
    expectError(await post(guest.token, { folder_id: work.id, target_id: fourth.id, browse: true, read: true }, { recursive: 1 }), 403, "forbidden");
    expect(await rightOf(work.id, fourth.id)).toBeUndefined();
    expect(owner.id).toBeGreaterThan(0);
  });

  it("requires a valid token", async () => {
    await expectAuthRequired(createRoute.POST, { method: "POST", body: { folder_id: 1, target_id: 1 } });
  });
});

describe("GET /api/right/(rightId) and GET /api/rights/(folderId)", () => {
  it("read a right and list a folder's own rights for those who may share", async () => {
    const { owner, guest, work, sub } = await createScene();
    const group = await createTestGroup();
    const a = await grantRight(work.id, guest.id, { read: true });
    const b = await grantRight(work.id, group.id, { read: true, download: true });
    await grantRight(sub.id, guest.id, { read: true });
    const one = await get(owner.token, a.id);
    expect(one.status, one.text).toBe(200);
    expect(rightResponse.strict().parse(one.body)).toMatchObject({ id: a.id, target_id: String(guest.id), read: true });
    const all = await list(owner.token, work.id);
    expect(all.status).toBe(200);
    expect(all.body.map((r: { id: number }) => r.id)).toEqual([a.id, b.id]);
    expect(all.body[1]).toMatchObject({ target: group.login, target_isgroup: true });
    const admin = await createAdmin();
    expect((await list(admin.token, work.id)).body).toHaveLength(2);
  });

  it("refuses without the share right (403), and hides rights of unbrowsable folders (404)", async () => {
    const { owner, guest, work } = await createScene();
    const stranger = await createTestUser();
    const right = await grantRight(work.id, guest.id, allRightsBut("share"));
    expectError(await get(guest.token, right.id), 403, "forbidden");
    expectError(await list(guest.token, work.id), 403, "forbidden");
    expectError(await get(stranger.token, right.id), 404, "not_found");
    expectError(await list(stranger.token, work.id), 404, "not_found");
    expectError(await get(owner.token, 2_000_000_000), 404, "not_found");
    await expectAuthRequired(rightRoute.GET, atRight(right.id));
    await expectAuthRequired(listRoute.GET, { params: { folderId: String(work.id) } });
  });
});

describe("PUT /api/right/(rightId)", () => {
  it("changes some flags, recursively on subfolders, and logs it", async () => {
    const { owner, guest, work, sub } = await createScene();
    const right = await grantRight(work.id, guest.id, { read: true });
    const res = await put(owner.token, right.id, { write: true, read: false }, { recursive: 1 });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ browse: true, read: false, write: true, download: false });
    expect(await rightOf(sub.id, guest.id)).toMatchObject({ read: false, write: true });
    expect(await latestLog("right", right.id, "ADMLLOG_UPDATE")).toBeTruthy();
    const patch = await call(rightRoute.PATCH, { ...atRight(right.id), method: "PATCH", token: owner.token, body: { read: true } });
    expect(patch.body).toMatchObject({ read: true, write: true });
  });

  it("lets a sharer turn on only flags they hold, and refuses others", async () => {
    const { owner, guest, work } = await createScene();
    const third = await createTestUser();
    await grantRight(work.id, guest.id, { read: true, share: true });
    const right = await grantRight(work.id, third.id, { read: true, delete: true });
    expectError(await put(guest.token, right.id, { write: true }), 403, "forbidden");
    // Keeping a flag they lack is fine; turning flags off is fine.
    expect((await put(guest.token, right.id, { read: false })).body).toMatchObject({ read: false, delete: true });
    const stranger = await createTestUser();
    expectError(await put(stranger.token, right.id, { read: true }), 404, "not_found");
    expectError(await put(owner.token, right.id, { read: 1 }), 400, "invalid_request");
    await expectAuthRequired(rightRoute.PUT, { ...atRight(right.id), method: "PUT", body: { read: true } });
  });
});

describe("DELETE /api/right/(rightId)", () => {
  it("removes the right (204), recursively the target's rights below", async () => {
    const { owner, guest, work, sub } = await createScene();
    const right = await grantRight(work.id, guest.id, { read: true });
    await grantRight(sub.id, guest.id, { read: true, write: true });
    const other = await createTestUser();
    await grantRight(sub.id, other.id, { read: true });
    const res = await del(owner.token, right.id, { recursive: 1 });
    expect(res.status, res.text).toBe(204);
    expect(await rightOf(work.id, guest.id)).toBeUndefined();
    expect(await rightOf(sub.id, guest.id)).toBeUndefined();
    expect(await rightOf(sub.id, other.id)).toBeTruthy();
    expectError(await readFolder(guest.token, work.id), 404);
    expect(await latestLog("right", right.id, "ADMLLOG_DELETE")).toBeTruthy();
  });

  it("keeps subfolder rights without recursive, and needs the share right", async () => {
    const { owner, guest, work, sub } = await createScene();
    const right = await grantRight(work.id, guest.id, allRightsBut("share"));
    await grantRight(sub.id, guest.id, { read: true });
    expectError(await del(guest.token, right.id), 403, "forbidden");
    expect((await del(owner.token, right.id)).status).toBe(204);
    expect(await rightOf(sub.id, guest.id)).toBeTruthy();
    expectError(await del(owner.token, right.id), 404, "not_found");
    await expectAuthRequired(rightRoute.DELETE, { ...atRight(right.id), method: "DELETE" });
  });
});
