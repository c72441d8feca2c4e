import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as oneRoute from "@/app/api/share/[shareId]/route";
import * as activityRoute from "@/app/api/share/[shareId]/activity/route";
import * as keyRoute from "@/app/api/share/key/[key]/route";
import * as createRoute from "@/app/api/share/route";
import * as listRoute from "@/app/api/shares/route";
import { getDb } from "@/db";
import { events, files, shareRoots, shares } from "@/db/schema";
import { shareResponse } from "@/lib/contracts/shares";
import { createShare as createShareService } from "@/lib/server/shares/create-share";
import { createAdmin, createTestUser } from "../../helpers/factories";
import { createFileScene, ctxIn, inRolledBackTransaction, latestLog, OPEN_TIMEOUT, openDatabase, setConfigIn } from "../../helpers/file-ops-factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { createShare, unlock } from "./share-helpers";

beforeAll(openDatabase, OPEN_TIMEOUT);

const post = (token: string | null, body: unknown) => call(createRoute.POST, { method: "POST", token, body });
const read = (token: string | null, id: number) => call(oneRoute.GET, { method: "GET", token, params: { shareId: String(id) } });
const edit = (token: string | null, id: number, body: unknown) => call(oneRoute.PUT, { method: "PUT", token, params: { shareId: String(id) }, body });
const remove = (token: string | null, id: number) => call(oneRoute.DELETE, { method: "DELETE", token, params: { shareId: String(id) } });
const activity = (token: string | null, id: number) => call(activityRoute.GET, { method: "GET", token, params: { shareId: String(id) } });

/** owner's folder with a file; `sharer` has every right but delete, `noShare` every right but share. */
async function scene() {
  const base = await createFileScene({ name: "report.txt", text: "quarterly" });
  const sharer = base.other;
  await grantRight(base.folder.id, sharer.id, allRightsBut("delete"));
  const noShare = await createTestUser();
  await grantRight(base.folder.id, noShare.id, allRightsBut("share"));
  return { ...base, sharer, noShare };
}

describe("POST /share", () => {
  it("shares a file (by version id) and a folder, with a key and url, logs and records timeline events", async () => {
    const { sharer, folder, file, version } = await scene();
    const res = await post(sharer.token, { roots: [{ id: version.id, entity_type: 1 }, { id: folder.id, entity_type: 0 }], name: "For the board" });
    expect(res.status, res.text).toBe(201);
    const share = shareResponse.parse(res.body);
    expect(share).toMatchObject({ flags: 4, name: "For the board", owner_id: sharer.id, expiration_date: null, password_protected: false, is_valid: true });
    expect(share.key.length).toBeGreaterThanOrEqual(22);
    expect(share.url).toMatch(new RegExp(`/s/${share.key}$`));
    expect(share.roots.map((r) => [r.entity_type, r.id, r.name, r.parent_id])).toEqual([
      [0, folder.id, folder.name, 0],
      [1, version.id, "report.txt", 0],
    ]);
    expect(share.roots[1]).toMatchObject({ guid: file.guid, extension: "txt", is_file: true, can_download: true, can_preview: true, can_edit: false, size: 9 });
    const db = await getDb();
    expect(await db.select().from(shareRoots).where(eq(shareRoots.shareId, share.id))).toHaveLength(2);
    expect((await latestLog("share", share.id))?.type).toBe("ADMLLOG_INSERT");
    const fileEvents = await db.select().from(events).where(and(eq(events.targetType, "file"), eq(events.targetId, file.id), eq(events.type, 2)));
    const folderEvents = await db.select().from(events).where(and(eq(events.targetType, "folder"), eq(events.targetId, folder.id), eq(events.type, 4)));
    expect(fileEvents.map((e) => e.actorId)).toEqual([sharer.id]);
    expect(folderEvents).toHaveLength(1);
  });

  it("stores only a hash of the password and sets flag 16 with it; checks the flag rules (400)", async () => {
    const { owner, version } = await scene();
    const roots = [{ id: version.id, entity_type: 1 }];
    const share = await createShare(owner, { roots, password: "s3cret-pass", flags: 128 });
    expect(share.flags).toBe(4 | 16 | 128);
    const [row] = await (await getDb()).select().from(shares).where(eq(shares.id, share.id));
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(share)).not.toContain("s3cret-pass");

    expectError(await post(owner.token, { roots, flags: 2 | 4 }), 400, "invalid_request");
    expectError(await post(owner.token, { roots, flags: 16 }), 400, "invalid_request");
    expectError(await post(owner.token, { roots, flags: 32 }), 400, "invalid_request");
    expectError(await post(owner.token, { roots, flags: 256 }), 400, "invalid_request");
    expectError(await post(owner.token, { roots: [] }), 400, "invalid_request");
    expectError(await post(owner.token, { roots: [{ id: version.id, entity_type: 3 }] }), 400, "invalid_request");
    expectError(await post(owner.token, { roots, phone: "call me" }), 400, "invalid_request");
    expectError(await post(owner.token, { roots, expiration_date: "2001-01-01T00:00:00Z" }), 400, "invalid_request");
    expect((await createShare(owner, { roots, phone: "+33 6 12 34 56 78", flags: 2 })).flags).toBe(2 | 32);
  });

  it("accepts unix seconds as expiration date", async () => {
    const { owner, folder } = await scene();
    const at = Math.floor(Date.now() / 1000) + 3600;
    const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }], expiration_date: at });
    expect(share.expiration_date).toBe(new Date(at * 1000).toISOString());
  });

  it("needs a token (401), the share right (403), a browsable folder (404) and known roots (404)", async () => {
    const { noShare, folder, version } = await scene();
    const stranger = await createTestUser();
    await expectAuthRequired(createRoute.POST, { method: "POST", body: { roots: [{ id: folder.id, entity_type: 0 }] } });
    expectError(await post(noShare.token, { roots: [{ id: folder.id, entity_type: 0 }] }), 403, "forbidden");
    expectError(await post(noShare.token, { roots: [{ id: version.id, entity_type: 1 }] }), 403, "forbidden");
    expectError(await post(stranger.token, { roots: [{ id: folder.id, entity_type: 0 }] }), 404, "not_found");
    expectError(await post(stranger.token, { roots: [{ id: 2_000_000_000, entity_type: 1 }] }), 404, "not_found");
    expect(await (await getDb()).select().from(shares).where(eq(shares.ownerId, noShare.id))).toHaveLength(0);
  });

  it("is refused when the platform feature direct_link is off (403)", async () => {
    const { owner, folder } = await scene();
    await inRolledBackTransaction(async (tx) => {
      await setConfigIn(tx, { features: { direct_link: false } });
      await expect(createShareService(ctxIn(tx, owner), { roots: [{ id: folder.id, entity_type: 0 }] }, "http://x")).rejects.toMatchObject({ status: 403 });
    });
  });
});

describe("GET /shares and GET /share/(id)", () => {
  it("lists only my shares, newest first, expired ones included", async () => {
    const { owner, sharer, folder } = await scene();
    const first = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }] });
    const second = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }] });
    await (await getDb()).update(shares).set({ expirationDate: new Date(Date.now() - 1000) }).where(eq(shares.id, first.id));
    await createShare(sharer, { roots: [{ id: folder.id, entity_type: 0 }] });
    const res = await call(listRoute.GET, { method: "GET", token: owner.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ offset_start: 0, nb_total_objects: 2, nb_objects: 2, nb_objets: 2 });
    expect(res.body.objects.map((s: { id: number }) => s.id)).toEqual([second.id, first.id]);
    expect(res.body.objects[1].is_valid).toBe(false);
    const paged = await call(listRoute.GET, { method: "GET", token: owner.token, query: { nb_objects: 1, offset_start: 1 } });
    expect(paged.body.objects.map((s: { id: number }) => s.id)).toEqual([first.id]);
    expectError(await call(listRoute.GET, { method: "GET", token: owner.token, query: { nb_objects: -1 } }), 400, "invalid_request");
    await expectAuthRequired(listRoute.GET, { method: "GET" });
  });

  it("reads a share for its owner and an administrator; 404 for anyone else and unknown ids", async () => {
    const { owner, sharer, folder } = await scene();
    const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }] });
    const res = await read(owner.token, share.id);
    expect(res.status).toBe(200);
    expect(shareResponse.parse(res.body).key).toBe(share.key);
    expect((await read((await createAdmin()).token, share.id)).status).toBe(200);
    expectError(await read(sharer.token, share.id), 404, "not_found");
    expectError(await read(owner.token, 2_000_000_000), 404, "not_found");
    expectError(await read(owner.token, "x" as unknown as number), 400, "invalid_request");
    await expectAuthRequired(oneRoute.GET, { method: "GET", params: { shareId: String(share.id) } });
  });

  it("shows trashed roots no more", async () => {
    const { owner, folder } = await scene();
    const extra = await uploadText(owner, folder.id, "gone.txt", "x");
    const share = await createShare(owner, { roots: [{ id: extra.version.id, entity_type: 1 }, { id: folder.id, entity_type: 0 }] });
    await (await getDb()).update(files).set({ deletedAt: new Date() }).where(eq(files.id, extra.file.id));
    expect((await read(owner.token, share.id)).body.roots.map((r: { id: number }) => r.id)).toEqual([folder.id]);
  });
});

describe("PUT /share/(id)", () => {
  it("changes name, flags, expiration and password; a new password revokes access tokens", async () => {
    const { owner, folder } = await scene();
    const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }], password: "first-pass" });
    const token = await unlock(share.key, "first-pass");
    const view = (t?: string) => call(keyRoute.GET, { method: "GET", params: { key: share.key }, headers: t ? { authorization: `Bearer ${t}` } : {} });
    expect((await view(token)).body.unlocked).toBe(true);

    const res = await edit(owner.token, share.id, { name: "renamed", flags: 2 | 16, password: "second-pass", expiration_date: null });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: "renamed", flags: 2 | 16, password_protected: true });
    expect((await view(token)).body.unlocked).toBe(false);
    expect((await view(await unlock(share.key, "second-pass"))).body.unlocked).toBe(true);
    expect((await latestLog("share", share.id))?.type).toBe("ADMLLOG_UPDATE");

    const open = await call(oneRoute.PATCH, { method: "PATCH", token: owner.token, params: { shareId: String(share.id) }, body: { password: null } });
    expect(open.body).toMatchObject({ flags: 2, password_protected: false });
    expect((await view()).body.unlocked).toBe(true);
  });

  it("replaces roots with the same checks as a creation", async () => {
    const { owner, noShare, folder, version } = await scene();
    const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }] });
    const res = await edit(owner.token, share.id, { roots: [{ id: version.id, entity_type: 1 }] });
    expect(res.body.roots.map((r: { entity_type: number }) => r.entity_type)).toEqual([1]);
    const theirs = await createShare(noShare, { roots: [{ id: noShare.privateRootId!, entity_type: 0 }] });
    expectError(await edit(noShare.token, theirs.id, { roots: [{ id: folder.id, entity_type: 0 }] }), 403, "forbidden");
  });

  it("refuses bad input (400), other users (404) and no token (401)", async () => {
    const { owner, sharer, folder } = await scene();
    const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }] });
    expectError(await edit(owner.token, share.id, { flags: 1 | 8 }), 400, "invalid_request");
    expectError(await edit(owner.token, share.id, { flags: 32 }), 400, "invalid_request");
    expectError(await edit(owner.token, share.id, { name: 5 }), 400, "invalid_request");
    expectError(await edit(sharer.token, share.id, { name: "mine" }), 404, "not_found");
    await expectAuthRequired(oneRoute.PUT, { method: "PUT", params: { shareId: String(share.id) }, body: { name: "x" } });
    expect((await read(owner.token, share.id)).body.name).toBeNull();
  });

  it("refuses a name with a NUL, a line break or a bidi override and a password over 200 characters; a past expiry ends the link now", async () => {
    const { owner, folder } = await scene();
    const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }], name: "Board pack" });
    for (const name of ["a\u0000b", "two\nlines", "evil\u202Etxt.exe", "mark\u200Fed"]) expectError(await edit(owner.token, share.id, { name }), 400, "invalid_request");
    expectError(await edit(owner.token, share.id, { password: "p".repeat(201) }), 400, "invalid_request");
    expectError(await edit(owner.token, share.id, { password: "short" }), 400, "invalid_request");
    expectError(await edit(owner.token, share.id, { expiration_date: "not a date" }), 400, "invalid_request");
    const kept = (await read(owner.token, share.id)).body;
    expect(kept).toMatchObject({ name: "Board pack", password_protected: false, expiration_date: null });

    const past = new Date(Date.now() - 86_400_000).toISOString();
    const ended = await edit(owner.token, share.id, { expiration_date: past, name: "  Board pack 2  " });
    expect(ended.status, ended.text).toBe(200);
    expect(ended.body.name).toBe("Board pack 2");
    expect(new Date(ended.body.expiration_date).getTime()).toBeLessThanOrEqual(Date.now());
    const visitor = await call(keyRoute.GET, { method: "GET", params: { key: share.key } });
    expect(visitor.status).toBeGreaterThanOrEqual(400);

    const reopened = await edit(owner.token, share.id, { expiration_date: null, password: "long-enough-pass" });
    expect(reopened.body).toMatchObject({ expiration_date: null, password_protected: true, flags: expect.any(Number) });
    expect(reopened.body.flags & 16).toBe(16);
    expect((await call(keyRoute.GET, { method: "GET", params: { key: share.key } })).body.unlocked).toBe(false);
  });
});

describe("DELETE /share/(id)", () => {
  it("deletes for the owner: the key answers 404 link_not_found; others get 404", async () => {
    const { owner, sharer, folder } = await scene();
    const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }] });
    expectError(await remove(sharer.token, share.id), 404, "not_found");
    await expectAuthRequired(oneRoute.DELETE, { method: "DELETE", params: { shareId: String(share.id) } });
    expect((await remove(owner.token, share.id)).status).toBe(204);
    expect((await latestLog("share", share.id))?.type).toBe("ADMLLOG_DELETE");
    expectError(await call(keyRoute.GET, { method: "GET", params: { key: share.key } }), 404, "link_not_found");
    expectError(await remove(owner.token, share.id), 404, "not_found");
  });

  it("lets an administrator delete anyone's share", async () => {
    const { owner, folder } = await scene();
    const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }] });
    expect((await remove((await createAdmin()).token, share.id)).status).toBe(204);
  });
});

describe("GET /share/(id)/activity", () => {
  it("counts visits and distinct visitors with env, for the owner only", async () => {
    const { owner, sharer, folder } = await scene();
    const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }] });
    const visit = (ip: string, ua: string) => call(keyRoute.GET, { method: "GET", params: { key: share.key }, headers: { "x-forwarded-for": ip, "user-agent": ua } });
    const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0";
    await visit("10.1.1.1", firefox);
    await visit("10.1.1.1", firefox);
    await visit("10.1.1.2", firefox);
    const res = await activity(owner.token, share.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ nb_total_objects: 3, visits: 3, downloads: 0, previews: 0, users: 2 });
    expect(res.body.objects[0]).toMatchObject({ kind: "visit", geo: null, env: { os_type: 3 } });
    expect(res.body.objects[0].env.browser).toMatch(/Firefox/);
    expect(res.body.last_access).toEqual(expect.any(String));
    expectError(await activity(sharer.token, share.id), 404, "not_found");
    await expectAuthRequired(activityRoute.GET, { method: "GET", params: { shareId: String(share.id) } });
  });

  it("starts empty", async () => {
    const { owner, folder } = await scene();
    const other = await createFolder(owner, folder.id, "empty");
    const share = await createShare(owner, { roots: [{ id: other.id, entity_type: 0 }] });
    expect((await activity(owner.token, share.id)).body).toMatchObject({ nb_total_objects: 0, users: 0, last_access: null, objects: [] });
  });
});
