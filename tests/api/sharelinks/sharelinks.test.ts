import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as oneRoute from "@/app/api/sharelink/[sharelinkId]/route";
import * as downloadRoute from "@/app/api/sharelink/download/[key]/route";
import * as passcheckRoute from "@/app/api/sharelink/key/[key]/passcheck/route";
import * as keyRoute from "@/app/api/sharelink/key/[key]/route";
import * as createRoute from "@/app/api/sharelink/route";
import * as listRoute from "@/app/api/sharelinks/route";
import { getDb } from "@/db";
import { fileTokens, shareAccesses, shares } from "@/db/schema";
import { sharelinkResponse } from "@/lib/contracts/sharelinks";
import { hashToken } from "@/lib/server/auth/tokens";
import { downloadByToken } from "@/lib/server/downloads/serve-download";
import { createTestUser, latestLog, type TestUser } from "../../helpers/factories";
import { createFileScene, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { allRightsBut, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";

// Downloads answer on Node's own response (pages/api): the redirect is followed over real HTTP.
let server: http.Server;
let base = "";
beforeAll(async () => {
  await openDatabase();
  server = http.createServer((req, res) => downloadByToken(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, OPEN_TIMEOUT);
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (token: string | null, body: unknown) => call(createRoute.POST, { method: "POST", token, body });
const read = (token: string, id: number) => call(oneRoute.GET, { method: "GET", token, params: { sharelinkId: String(id) } });
const edit = (token: string, id: number, body: unknown) => call(oneRoute.PUT, { method: "PUT", token, params: { sharelinkId: String(id) }, body });
const remove = (token: string, id: number) => call(oneRoute.DELETE, { method: "DELETE", token, params: { sharelinkId: String(id) } });
const byKey = (key: string, accessToken?: string) => call(keyRoute.GET, { method: "GET", params: { key }, headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {} });
const download = (key: string, accessToken?: string) => call(downloadRoute.GET, { method: "GET", params: { key }, query: accessToken ? { access_token: accessToken } : {} });
const passcheck = (key: string, password: string) => call(passcheckRoute.POST, { method: "POST", params: { key }, body: { password }, headers: { "x-forwarded-for": "192.0.2.44" } });

async function createLink(user: TestUser, body: Record<string, unknown>) {
  const res = await post(user.token, body);
  expect(res.status, res.text).toBe(201);
  return sharelinkResponse.parse(res.body);
}

async function storedShare(id: number) {
  const db = await getDb();
  return (await db.select().from(shares).where(eq(shares.id, id)))[0];
}

describe("POST /sharelink", () => {
  it("creates a current share with the legacy options mapped onto flags and shares.legacy", async () => {
    const { owner, file, version } = await createFileScene({ name: "price-list.txt" });
    const link = await createLink(owner, { files: [version.id], only_preview: true, notify: 1, max_downloads: 1, password: "legacy-pass", force_dl: true });
    expect(link).toMatchObject({ only_preview: true, notify: true, max_downloads: 1, remaining_downloads: 1, force_dl: true, autoupdate: true, type: null, is_valid: true, nb_downloads: 0, owner_id: owner.id });
    expect(link.files.map((f) => f.name)).toEqual(["price-list.txt"]);
    expect(link.password_protected).toMatch(/^[0-9a-f]{16}$/);
    expect(link.stats).toEqual({ downloads: [], users: 0 });
    expect(link.url).toBe(`http://coffre.test/s/${link.key}`);
    const row = await storedShare(link.id);
    expect(row.flags).toBe(2 | 16 | 64 | 128);
    expect(row.legacy).toMatchObject({ max_downloads: 1, force_dl: true });
    expect(JSON.stringify(link)).not.toContain(row.passwordHash!);
    expect((await latestLog("share", link.id))?.type).toBe("ADMLLOG_INSERT");

    // `file_id` and `{id}` forms; no options: preview and download (4).
    const single = await createLink(owner, { file_id: version.id });
    expect((await storedShare(single.id)).flags).toBe(4);
    expect(single).toMatchObject({ only_preview: false, password_protected: null, remaining_downloads: null, notify: false });
    const objects = await createLink(owner, { files: [{ id: version.id }], type: 1, phone: "+33 6 00 00 00 01" });
    expect(objects.type).toBe(1);
    expect((await storedShare(objects.id)).flags & 32).toBe(32);
    expect(file.id).toBeGreaterThan(0);
  });

  it("refuses bad bodies (400) and unknown files (404)", async () => {
    const { owner, version } = await createFileScene();
    expectError(await post(owner.token, {}), 400, "invalid_request");
    expectError(await post(owner.token, { files: [] }), 400, "invalid_request");
    expectError(await post(owner.token, { files: [version.id], type: 1 }), 400, "invalid_request");
    expectError(await post(owner.token, { files: [version.id], max_downloads: -1 }), 400, "invalid_request");
    expectError(await post(owner.token, { files: [2_000_000_000] }), 404);
  });

  it("needs a token and the share right on the file's folder", async () => {
    const { other, folder, version } = await createFileScene();
    await expectAuthRequired(createRoute.POST, { method: "POST", body: { files: [version.id] } });
    const refused = await post(other.token, { files: [version.id] });
    expect([403, 404]).toContain(refused.status);
    const noShare = await createTestUser();
    await grantRight(folder.id, noShare.id, allRightsBut("share"));
    expectError(await post(noShare.token, { files: [version.id] }), 403, "forbidden");
  });
});

describe("GET /sharelinks, GET, PUT, DELETE /sharelink/(id)", () => {
  it("lists and reads my links only", async () => {
    const { owner, other, version } = await createFileScene();
    const link = await createLink(owner, { files: [version.id] });
    const res = await call(listRoute.GET, { method: "GET", token: owner.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ nb_total_objects: 1, objects: [{ id: link.id, key: link.key }] });
    expect((await call(listRoute.GET, { method: "GET", token: other.token })).body.nb_total_objects).toBe(0);
    expect(sharelinkResponse.parse((await read(owner.token, link.id)).body)).toMatchObject({ id: link.id });
    expectError(await read(other.token, link.id), 404, "not_found");
    expectError(await read(owner.token, 2_000_000_000), 404, "not_found");
    await expectAuthRequired(listRoute.GET, { method: "GET" });
    await expectAuthRequired(oneRoute.GET, { method: "GET", params: { sharelinkId: String(link.id) } });
  });

  it("updates the legacy options (partial) through the share's rules", async () => {
    const { owner, other, version } = await createFileScene();
    const link = await createLink(owner, { files: [version.id], only_preview: true, max_downloads: 1 });
    const res = await edit(owner.token, link.id, { only_preview: false, max_downloads: 5, autoupdate: false });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ only_preview: false, max_downloads: 5, remaining_downloads: 5, autoupdate: false });
    expect((await storedShare(link.id)).flags).toBe(4);
    const patched = await call(oneRoute.PATCH, { method: "PATCH", token: owner.token, params: { sharelinkId: String(link.id) }, body: { notify: true } });
    expect(patched.body).toMatchObject({ notify: true, max_downloads: 5, only_preview: false });
    expect((await latestLog("share", link.id))?.type).toBe("ADMLLOG_UPDATE");
    expectError(await edit(owner.token, link.id, { type: 1 }), 400, "invalid_request");
    expectError(await edit(other.token, link.id, { notify: true }), 404, "not_found");
    await expectAuthRequired(oneRoute.PUT, { method: "PUT", params: { sharelinkId: String(link.id) }, body: { notify: true } });
  });

  it("deletes: the key then answers link_not_found", async () => {
    const { owner, other, version } = await createFileScene();
    const link = await createLink(owner, { files: [version.id] });
    expectError(await remove(other.token, link.id), 404, "not_found");
    await expectAuthRequired(oneRoute.DELETE, { method: "DELETE", params: { sharelinkId: String(link.id) } });
    expect((await remove(owner.token, link.id)).status).toBe(204);
    expectError(await byKey(link.key), 404, "link_not_found");
    expectError(await download(link.key), 404, "link_not_found");
  });
});

describe("public legacy operations", () => {
  it("shows a link to a visitor without the owner's fields, and counts the visit", async () => {
    const { owner, version } = await createFileScene({ name: "brochure.txt" });
    const link = await createLink(owner, { files: [version.id] });
    const res = await byKey(link.key);
    expect(res.status, res.text).toBe(200);
    const seen = sharelinkResponse.parse(res.body);
    expect(seen.files.map((f) => f.name)).toEqual(["brochure.txt"]);
    expect(res.body).not.toHaveProperty("nb_downloads");
    expect(res.body).not.toHaveProperty("stats");
    const db = await getDb();
    expect((await db.select().from(shareAccesses).where(eq(shareAccesses.shareId, link.id))).map((a) => a.kind)).toEqual(["visit"]);
  });

  it("lists no files of a protected link before passcheck; refuses unknown and expired keys", async () => {
    const { owner, version } = await createFileScene({ name: "hidden.txt" });
    const link = await createLink(owner, { files: [version.id], password: "let-me-in" });
    const locked = await byKey(link.key);
    expect(locked.status, locked.text).toBe(200);
    expect(locked.body.files).toEqual([]);
    expect(locked.text).not.toContain("hidden.txt");
    expectError(await passcheck(link.key, "wrong-one"), 403, "forbidden");
    const ok = await passcheck(link.key, "let-me-in");
    expect(ok.status, ok.text).toBe(200);
    expect((await byKey(link.key, ok.body.access_token)).body.files.map((f: { name: string }) => f.name)).toEqual(["hidden.txt"]);

    expectError(await byKey("no-such-legacy-key"), 404, "link_not_found");
    const db = await getDb();
    await db.update(shares).set({ expirationDate: new Date(Date.now() - 1000) }).where(eq(shares.id, link.id));
    expectError(await byKey(link.key), 410, "link_expired");
    expectError(await download(link.key), 410, "link_expired");
  });

  it("downloads one file through a redirect to its share token; a preview-only link gives no bytes", async () => {
    const { owner, folder, version } = await createFileScene({ name: "one.txt", text: "the bytes" });
    const link = await createLink(owner, { files: [version.id] });
    const res = await download(link.key);
    expect(res.status, res.text).toBe(302);
    const location = new URL(res.headers.get("location")!);
    expect(location.pathname).toBe("/api/file/download");
    const token = location.searchParams.get("token")!;
    const db = await getDb();
    const [row] = await db.select().from(fileTokens).where(eq(fileTokens.tokenHash, hashToken(token)));
    expect(row).toMatchObject({ shareId: link.id, type: "download", versionId: version.id });
    const fetched = await fetch(`${base}${location.pathname}${location.search}`);
    expect(fetched.status).toBe(200);
    expect(await fetched.text()).toBe("the bytes");

    const previewOnly = await createLink(owner, { files: [version.id], only_preview: true });
    expectError(await download(previewOnly.key), 403, "forbidden");

    // Several files: the zip of the share, with the visitor's access token carried along.
    const second = await uploadText(owner, folder.id, "two.txt", "more");
    const both = await createLink(owner, { files: [version.id, second.version.id], password: "zip-pass" });
    expectError(await download(both.key), 401, "unauthorized");
    const access = (await passcheck(both.key, "zip-pass")).body.access_token as string;
    const zipped = await download(both.key, access);
    expect(zipped.status, zipped.text).toBe(302);
    expect(zipped.headers.get("location")).toBe(`http://coffre.test/api/zip/share/${both.key}?access_token=${access}`);
    expectError(await call(downloadRoute.POST, { method: "POST", params: { key: both.key } }), 405, "method_not_allowed");
  });
});
