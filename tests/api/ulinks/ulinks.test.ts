import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as oneRoute from "@/app/api/ulink/[ulinkId]/route";
import * as keyRoute from "@/app/api/ulink/key/[key]/route";
import * as createRoute from "@/app/api/ulink/route";
import * as listRoute from "@/app/api/ulinks/route";
import { getDb } from "@/db";
import { folders } from "@/db/schema";
import { publicUlinkResponse, ulinkResponse } from "@/lib/contracts/ulinks";
import { createUlink } from "@/lib/server/ulinks/create-ulink";
import { createAdmin, createTestUser } from "../../helpers/factories";
import { createFileScene, ctxIn, inRolledBackTransaction, latestLog, OPEN_TIMEOUT, openDatabase, setConfigIn } from "../../helpers/file-ops-factories";
import { allRightsBut, createFolder, grantRight } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { byKey, createLink, expire, post, storedLink } from "./ulink-helpers";

beforeAll(openDatabase, OPEN_TIMEOUT);

const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();

const read = (token: string, id: number) => call(oneRoute.GET, { method: "GET", token, params: { ulinkId: String(id) } });
const edit = (token: string, id: number, body: unknown) => call(oneRoute.PUT, { method: "PUT", token, params: { ulinkId: String(id) }, body });
const remove = (token: string, id: number) => call(oneRoute.DELETE, { method: "DELETE", token, params: { ulinkId: String(id) } });
const list = (token: string, query: Record<string, string> = {}) => call(listRoute.GET, { method: "GET", token, query });
describe("POST /ulink", () => {
  it("creates a drop link with its own key and url, receipt flag, log entry", async () => {
    const { owner, folder } = await createFileScene();
    const expiration = inAnHour();
    const link = await createLink(owner, { folder_id: folder.id, name: "Invoices", alert: true, expiration_date: expiration });
    expect(link).toMatchObject({
      folder: folder.name,
      folder_id: folder.id,
      is_valid: true,
      owner_id: String(owner.id),
      name: "Invoices",
      flags: 4,
      alert: true,
      password_protected: false,
      expiration_date: new Date(expiration).toISOString(),
    });
    expect(link.folder_size).toBe(5);
    expect(link.key.length).toBeGreaterThanOrEqual(22);
    expect(link.url).toBe(`http://coffre.test/d/${link.key}`);
    expect((await latestLog("ulink", link.id))?.type).toBe("ADMLLOG_INSERT");

    const other = await createLink(owner, { folder_id: folder.id, flags: 0 });
    expect(other.key).not.toBe(link.key);
    expect(other).toMatchObject({ flags: 0, alert: false, name: null, expiration_date: null });
  });

  it("hashes the password and keeps the phone (flags 16 and 32)", async () => {
    const { owner, folder } = await createFileScene();
    const link = await createLink(owner, { folder_id: folder.id, password: "s3cret-drop", phone: "+33 6 12 34 56 78", flags: 4 });
    expect(link).toMatchObject({ flags: 4 | 16 | 32, password_protected: true, phone: "+33 6 12 34 56 78" });
    const row = await storedLink(link.id);
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(link)).not.toContain("s3cret-drop");
  });

  it("refuses bad bodies (400) and unknown folders (404)", async () => {
    const { owner, folder } = await createFileScene();
    expectError(await post(owner.token, {}), 400, "invalid_request");
    expectError(await post(owner.token, { folder_id: "abc" }), 400, "invalid_request");
    expectError(await post(owner.token, { folder_id: folder.id, expiration_date: "2001-01-01T00:00:00Z" }), 400, "invalid_request");
    expectError(await post(owner.token, { folder_id: folder.id, phone: "call me" }), 400, "invalid_request");
    expectError(await post(owner.token, { folder_id: folder.id, password: "" }), 400, "invalid_request");
    expectError(await post(owner.token, { folder_id: 2_000_000_000 }), 404, "not_found");
  });

  it("needs a token, the share and write rights on the folder, and the upload_link feature", async () => {
    const { owner, other, folder } = await createFileScene();
    await expectAuthRequired(createRoute.POST, { method: "POST", body: { folder_id: folder.id } });
    expectError(await post(other.token, { folder_id: folder.id }), 404, "not_found");
    const noShare = await createTestUser();
    await grantRight(folder.id, noShare.id, allRightsBut("share"));
    expectError(await post(noShare.token, { folder_id: folder.id }), 403, "forbidden");
    const noWrite = await createTestUser();
    await grantRight(folder.id, noWrite.id, allRightsBut("write"));
    expectError(await post(noWrite.token, { folder_id: folder.id }), 403, "forbidden");
    const sharer = await createTestUser();
    await grantRight(folder.id, sharer.id, allRightsBut());
    await createLink(sharer, { folder_id: folder.id });

    let refused: unknown;
    await inRolledBackTransaction(async (tx) => {
      await setConfigIn(tx, { features: { upload_link: false } });
      refused = await createUlink(ctxIn(tx, owner), { folder_id: folder.id, alert: false }, "http://x").catch((e) => e);
    });
    expect(refused).toMatchObject({ code: "forbidden" });
  });
});

describe("GET /ulinks and GET /ulink/(id)", () => {
  it("lists my links, expired ones included, newest first, never other people's", async () => {
    const { owner, other, folder } = await createFileScene();
    const first = await createLink(owner, { folder_id: folder.id, name: "first" });
    const second = await createLink(owner, { folder_id: folder.id, name: "second" });
    await expire(first.id);
    const theirFolder = await createFolder(other, other.privateRootId!, "theirs");
    await createLink(other, { folder_id: theirFolder.id });

    const res = await list(owner.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ offset_start: 0, nb_total_objects: 2, nb_objects: 2, nb_objets: 2 });
    const objects = res.body.objects.map((o: unknown) => ulinkResponse.parse(o));
    expect(objects.map((o: { id: number }) => o.id)).toEqual([second.id, first.id]);
    expect(objects[1].is_valid).toBe(false);
    const paged = await list(owner.token, { offset_start: "1", nb_objects: "1" });
    expect(paged.body.objects.map((o: { id: number }) => o.id)).toEqual([first.id]);
    expectError(await list(owner.token, { nb_objects: "-1" }), 400, "invalid_request");
    await expectAuthRequired(listRoute.GET, { method: "GET" });
  });

  it("reads a link for its owner and an administrator; 404 for others and unknown ids", async () => {
    const { owner, other, folder } = await createFileScene();
    const link = await createLink(owner, { folder_id: folder.id });
    const res = await read(owner.token, link.id);
    expect(res.status, res.text).toBe(200);
    expect(ulinkResponse.parse(res.body)).toMatchObject({ id: link.id, key: link.key, folder: folder.name });
    const admin = await createAdmin();
    expect((await read(admin.token, link.id)).status).toBe(200);
    expectError(await read(other.token, link.id), 404, "not_found");
    expectError(await read(owner.token, 2_000_000_000), 404, "not_found");
    expectError(await call(oneRoute.GET, { method: "GET", token: owner.token, params: { ulinkId: "x" } }), 400, "invalid_request");
    await expectAuthRequired(oneRoute.GET, { method: "GET", params: { ulinkId: String(link.id) } });
  });

  it("shows is_valid false and folder_id null once the destination is gone", async () => {
    const { owner, folder } = await createFileScene();
    const link = await createLink(owner, { folder_id: folder.id });
    const db = await getDb();
    await db.update(folders).set({ deletedAt: new Date() }).where(eq(folders.id, folder.id));
    const res = await read(owner.token, link.id);
    expect(res.body).toMatchObject({ is_valid: false, folder_id: null, folder: null });
    expectError(await byKey(link.key), 410, "link_expired");
  });
});

describe("PUT /ulink/(id)", () => {
  it("changes name, expiration, receipt and protection; PATCH is a synonym", async () => {
    const { owner, folder } = await createFileScene();
    const link = await createLink(owner, { folder_id: folder.id, password: "first-pass" });
    const res = await edit(owner.token, link.id, { name: "Renamed", alert: true, expiration_date: Math.floor(Date.now() / 1000) + 7200 });
    expect(res.status, res.text).toBe(200);
    expect(ulinkResponse.parse(res.body)).toMatchObject({ name: "Renamed", alert: true, flags: 4 | 16, password_protected: true, key: link.key });
    const patched = await call(oneRoute.PATCH, { method: "PATCH", token: owner.token, params: { ulinkId: String(link.id) }, body: { password: null, alert: false } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ flags: 0, password_protected: false, name: "Renamed" });
    expect((await storedLink(link.id)).passwordHash).toBeNull();
    expect((await latestLog("ulink", link.id))?.type).toBe("ADMLLOG_UPDATE");

    const elsewhere = await createFolder(owner, owner.privateRootId!, "elsewhere");
    const moved = await edit(owner.token, link.id, { folder_id: elsewhere.id });
    expect(moved.body).toMatchObject({ folder_id: elsewhere.id, folder: "elsewhere" });
  });

  it("refuses bad values (400), other people (404) and folders without the rights (403)", async () => {
    const { owner, other, folder } = await createFileScene();
    const link = await createLink(owner, { folder_id: folder.id });
    expectError(await edit(owner.token, link.id, { expiration_date: "yesterday" }), 400, "invalid_request");
    expectError(await edit(owner.token, link.id, { expiration_date: "2001-01-01" }), 400, "invalid_request");
    expectError(await edit(other.token, link.id, { name: "mine" }), 404, "not_found");
    const theirs = await createFolder(other, other.privateRootId!, "theirs");
    expectError(await edit(owner.token, link.id, { folder_id: theirs.id }), 404, "not_found");
    const readOnly = await createFolder(other, other.privateRootId!, "read-only");
    await grantRight(readOnly.id, owner.id, allRightsBut("share"));
    expectError(await edit(owner.token, link.id, { folder_id: readOnly.id }), 403, "forbidden");
    await expectAuthRequired(oneRoute.PUT, { method: "PUT", params: { ulinkId: String(link.id) }, body: { name: "x" } });
  });
});

describe("DELETE /ulink/(id)", () => {
  it("deletes the link: its key then answers link_not_found", async () => {
    const { owner, other, folder } = await createFileScene();
    const link = await createLink(owner, { folder_id: folder.id });
    expectError(await remove(other.token, link.id), 404, "not_found");
    await expectAuthRequired(oneRoute.DELETE, { method: "DELETE", params: { ulinkId: String(link.id) } });
    const res = await remove(owner.token, link.id);
    expect(res.status, res.text).toBe(204);
    expect(await storedLink(link.id)).toBeUndefined();
    expect((await latestLog("ulink", link.id))?.type).toBe("ADMLLOG_DELETE");
    expectError(await byKey(link.key), 404, "link_not_found");
    expectError(await remove(owner.token, link.id), 404, "not_found");
  });
});

describe("GET /ulink/key/(key)", () => {
  it("tells a visitor what to ask for, never the folder nor its files", async () => {
    const { owner, folder, file } = await createFileScene({ name: "secret-plans.txt" });
    const link = await createLink(owner, { folder_id: folder.id, name: "Drop here", password: "pw-123456" });
    const res = await byKey(link.key);
    expect(res.status, res.text).toBe(200);
    expect(publicUlinkResponse.strict().parse(res.body)).toMatchObject({ key: link.key, name: "Drop here", is_valid: true, password_required: true, code_required: false });
    expect(res.text).not.toContain(file.name);
    expect(res.text).not.toContain(folder.name);
    // No field carries the folder's id (a substring test would match digits of the key or a date).
    expect(Object.values(res.body as Record<string, unknown>)).not.toContain(folder.id);
    expect(Object.values(res.body as Record<string, unknown>)).not.toContain(String(folder.id));
  });

  it("refuses unknown (404) and expired (410) keys; only GET is allowed", async () => {
    const { owner, folder } = await createFileScene();
    expectError(await byKey("no-such-key-at-all"), 404, "link_not_found");
    const link = await createLink(owner, { folder_id: folder.id });
    await expire(link.id);
    expectError(await byKey(link.key), 410, "link_expired");
    // Still listed for its owner.
    expect((await read(owner.token, link.id)).body.is_valid).toBe(false);
    expectError(await call(keyRoute.POST, { method: "POST", params: { key: link.key } }), 405, "method_not_allowed");
  });
});
