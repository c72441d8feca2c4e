import { desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as contentFolderRoute from "@/app/api/share/content/[key]/[folderId]/route";
import * as contentRoute from "@/app/api/share/content/[key]/route";
import * as passcheckRoute from "@/app/api/share/key/[key]/passcheck/route";
import * as keyRoute from "@/app/api/share/key/[key]/route";
import * as smsRoute from "@/app/api/share/key/[key]/sms/route";
import { getDb } from "@/db";
import { files, folders, linkAccessTokens, rights, shares, smsMessages } from "@/db/schema";
import { publicShareResponse } from "@/lib/contracts/shares";
import { createFileScene, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { createTestUser } from "../../helpers/factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { bearer, createShare, unlock } from "./share-helpers";

beforeAll(openDatabase, OPEN_TIMEOUT);

const view = (key: string, token?: string) => call(keyRoute.GET, { method: "GET", params: { key }, headers: bearer(token) });
const passcheck = (key: string, body: unknown, ip = "10.2.0.1") => call(passcheckRoute.POST, { method: "POST", params: { key }, body, headers: { "x-forwarded-for": ip } });
const content = (key: string, token?: string, query: Record<string, string> = {}) => call(contentRoute.GET, { method: "GET", params: { key }, headers: bearer(token), query });
const inFolder = (key: string, folderId: number, token?: string) => call(contentFolderRoute.GET, { method: "GET", params: { key, folderId: String(folderId) }, headers: bearer(token) });
const sms = (key: string) => call(smsRoute.POST, { method: "POST", params: { key } });

/** A shared folder holding a file and a subfolder with a file; the owner's other folder beside it. */
async function tree() {
  const { owner, folder: parent } = await createFileScene();
  const shared = await createFolder(owner, parent.id, "Shared");
  const sub = await createFolder(owner, shared.id, "Sub");
  const top = await uploadText(owner, shared.id, "top.txt", "top bytes");
  const deep = await uploadText(owner, sub.id, "deep.txt", "deep bytes");
  const beside = await createFolder(owner, parent.id, "Private");
  return { owner, parent, shared, sub, top, deep, beside };
}

describe("GET /share/key/(key)", () => {
  it("shows an open link with its roots, owner name and rights, and counts the visit", async () => {
    const { owner, shared } = await tree();
    const share = await createShare(owner, { roots: [{ id: shared.id, entity_type: 0 }], name: "Board pack", flags: 2 });
    const res = await view(share.key);
    expect(res.status, res.text).toBe(200);
    const body = publicShareResponse.parse(res.body);
    expect(body).toMatchObject({ name: "Board pack", unlocked: true, needs_password: false, needs_code: false, can_download: false, can_preview: true, can_edit: false });
    expect(body.owner).toBe(`${owner.firstname} ${owner.lastname}`.trim() || owner.login);
    expect(body.roots?.map((r) => r.name)).toEqual(["Shared"]);
    expect(res.text).not.toContain("phone");
  });

  it("hides name and roots of a password-protected link until an access token (header or query) unlocks it", async () => {
    const { owner, shared } = await tree();
    const share = await createShare(owner, { roots: [{ id: shared.id, entity_type: 0 }], name: "Secret plans", password: "open-sesame" });
    const locked = await view(share.key);
    expect(locked.body).toMatchObject({ unlocked: false, needs_password: true, name: null });
    expect(locked.body.roots).toBeUndefined();
    expect(locked.text).not.toContain("Shared");
    expect(locked.text).not.toContain("Secret plans");
    const token = await unlock(share.key, "open-sesame");
    expect((await view(share.key, token)).body).toMatchObject({ unlocked: true, name: "Secret plans" });
    const byQuery = await call(keyRoute.GET, { method: "GET", params: { key: share.key }, query: { access_token: token } });
    expect(byQuery.body.unlocked).toBe(true);
    const other = await createShare(owner, { roots: [{ id: shared.id, entity_type: 0 }], password: "open-sesame" });
    expect((await view(other.key, token)).body.unlocked).toBe(false);
  });

  it("answers 404 link_not_found for unknown keys and 410 link_expired for expired links, on every public route", async () => {
    const { owner, shared } = await tree();
    expectError(await view("no-such-key"), 404, "link_not_found");
    expectError(await content("no-such-key"), 404, "link_not_found");
    expectError(await passcheck("no-such-key", { password: "whatever" }), 404, "link_not_found");
    const share = await createShare(owner, { roots: [{ id: shared.id, entity_type: 0 }], password: "pass-word" });
    await (await getDb()).update(shares).set({ expirationDate: new Date(Date.now() - 1000) }).where(eq(shares.id, share.id));
    expectError(await view(share.key), 410, "link_expired");
    expectError(await content(share.key), 410, "link_expired");
    expectError(await inFolder(share.key, shared.id), 410, "link_expired");
    expectError(await passcheck(share.key, { password: "pass-word" }), 410, "link_expired");
    expectError(await sms(share.key), 410, "link_expired");
  });
});

describe("POST /share/key/(key)/passcheck", () => {
  it("gives a 2-hour access token for the right password, 403 for a wrong one, 400 without one", async () => {
    const { owner, shared } = await tree();
    const share = await createShare(owner, { roots: [{ id: shared.id, entity_type: 0 }], password: "right-one" });
    expectError(await passcheck(share.key, { password: "wrong-one" }, "10.2.1.1"), 403, "forbidden");
    expectError(await passcheck(share.key, {}, "10.2.1.1"), 400, "invalid_request");
    const ok = await passcheck(share.key, { password: "right-one" }, "10.2.1.1");
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.access_token).toEqual(expect.any(String));
    const [row] = await (await getDb()).select().from(linkAccessTokens).where(eq(linkAccessTokens.linkId, share.id)).orderBy(desc(linkAccessTokens.expiresAt)).limit(1);
    expect(row.tokenHash).not.toBe(ok.body.access_token);
    expect(Math.abs(row.expiresAt.getTime() - Date.now() - 2 * 3600_000)).toBeLessThan(60_000);
  });

  it("throttles brute force per link and address: 429 with Retry-After, even for the right password", async () => {
    const { owner, shared } = await tree();
    const share = await createShare(owner, { roots: [{ id: shared.id, entity_type: 0 }], password: "right-one" });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await passcheck(share.key, { password: `guess-${i}` }, "10.2.2.2")).status);
    expect(statuses.slice(0, 4)).toEqual([403, 403, 403, 403]);
    expect(statuses.at(-1)).toBe(429);
    const blocked = await passcheck(share.key, { password: "right-one" }, "10.2.2.2");
    expectError(blocked, 429, "too_many_requests");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await passcheck(share.key, { password: "right-one" }, "10.2.2.3")).status).toBe(200);
  });
});

describe("POST /share/key/(key)/sms", () => {
  it("sends a code to the share's phone through the outbox provider, never revealing it; the code unlocks once", async () => {
    const { owner, shared } = await tree();
    const phone = `+3361${String(Date.now()).slice(-7)}`;
    const share = await createShare(owner, { roots: [{ id: shared.id, entity_type: 0 }], phone });
    expect((await view(share.key)).body).toMatchObject({ needs_code: true, unlocked: false });
    const sent = await sms(share.key);
    expect(sent.status, sent.text).toBe(204);
    expect(sent.text).toBe("");
    const [message] = await (await getDb()).select().from(smsMessages).where(eq(smsMessages.to, phone));
    expect(message).toMatchObject({ provider: "outbox", error: null });
    const code = /(\d{6})/.exec(message.body)![1];
    expectError(await sms(share.key), 429, "too_many_requests");
    expectError(await passcheck(share.key, { code: code === "000000" ? "111111" : "000000" }, "10.2.3.1"), 403);
    const ok = await passcheck(share.key, { code }, "10.2.3.1");
    expect(ok.status, ok.text).toBe(200);
    expect((await view(share.key, ok.body.access_token)).body.unlocked).toBe(true);
    expectError(await passcheck(share.key, { code }, "10.2.3.1"), 403);
  });

  it("is a 400 on a link without SMS protection", async () => {
    const { owner, shared } = await tree();
    const share = await createShare(owner, { roots: [{ id: shared.id, entity_type: 0 }] });
    expectError(await sms(share.key), 400, "invalid_request");
  });
});

describe("GET /share/content/(key)[/(folderId)]", () => {
  it("lists the roots, then folders inside them, never anything outside; trashed items are skipped", async () => {
    const { owner, parent, shared, sub, top, deep, beside } = await tree();
    const share = await createShare(owner, { roots: [{ id: shared.id, entity_type: 0 }] });
    const roots = await content(share.key);
    expect(roots.status, roots.text).toBe(200);
    expect(roots.body).toMatchObject({ nb_total_objects: 1, folder: null });
    expect(roots.body.objects[0]).toMatchObject({ id: shared.id, entity_type: 0, parent_id: 0, size: 19 });

    const inside = await inFolder(share.key, shared.id);
    expect(inside.status, inside.text).toBe(200);
    expect(inside.body.folder).toEqual({ id: shared.id, name: "Shared", parent_id: 0 });
    expect(inside.body.objects.map((o: { name: string; id: number }) => [o.name, o.id])).toEqual([["Sub", sub.id], ["top.txt", top.version.id]]);
    const deeper = await inFolder(share.key, sub.id);
    expect(deeper.body.folder).toEqual({ id: sub.id, name: "Sub", parent_id: shared.id });
    expect(deeper.body.objects.map((o: { id: number }) => o.id)).toEqual([deep.version.id]);

    expectError(await inFolder(share.key, parent.id), 404, "not_found");
    expectError(await inFolder(share.key, beside.id), 404, "not_found");
    expectError(await inFolder(share.key, owner.privateRootId!), 404, "not_found");
    expectError(await inFolder(share.key, 2_000_000_000), 404, "not_found");

    const db = await getDb();
    await db.update(files).set({ deletedAt: new Date() }).where(eq(files.id, top.file.id));
    await db.update(folders).set({ deletedAt: new Date() }).where(eq(folders.id, sub.id));
    expect((await inFolder(share.key, shared.id)).body.objects).toEqual([]);
    expectError(await inFolder(share.key, sub.id), 404, "not_found");
  });

  it("serves on the owner's behalf: roots the owner may no longer share are withdrawn", async () => {
    const { owner, shared, top } = await tree();
    const sharer = await createTestUser();
    const right = await grantRight(shared.id, sharer.id, allRightsBut("delete"));
    const share = await createShare(sharer, { roots: [{ id: shared.id, entity_type: 0 }] });
    expect((await content(share.key)).body.nb_total_objects).toBe(1);
    await (await getDb()).update(rights).set({ share: false }).where(eq(rights.id, right.id));
    expect((await content(share.key)).body).toMatchObject({ nb_total_objects: 0, objects: [] });
    expectError(await inFolder(share.key, shared.id), 404, "not_found");
    expect(owner.id).not.toBe(sharer.id);
    expect(top.file.folderId).toBe(shared.id);
  });

  it("pages the content", async () => {
    const { owner, shared } = await tree();
    const share = await createShare(owner, { roots: [{ id: shared.id, entity_type: 0 }] });
    const page = await call(contentFolderRoute.GET, { method: "GET", params: { key: share.key, folderId: String(shared.id) }, query: { offset_start: 1, nb_objects: 1 } });
    expect(page.body).toMatchObject({ nb_total_objects: 2, nb_objects: 1 });
    expect(page.body.objects[0].name).toBe("top.txt");
  });

  it("needs the access token of a protected link (401)", async () => {
    const { owner, shared } = await tree();
    const share = await createShare(owner, { roots: [{ id: shared.id, entity_type: 0 }], password: "pass-word" });
    expectError(await content(share.key), 401, "unauthorized");
    expectError(await inFolder(share.key, shared.id), 401, "unauthorized");
    expectError(await content(share.key, "forged-token"), 401, "unauthorized");
    const token = await unlock(share.key, "pass-word");
    expect((await content(share.key, token)).status).toBe(200);
    expect((await inFolder(share.key, shared.id, token)).status).toBe(200);
  });
});
