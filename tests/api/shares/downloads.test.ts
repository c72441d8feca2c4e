import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as dataTokenRoute from "@/app/api/token/sharelink/[key]/[dataId]/[type]/route";
import * as legacyKeyTokenRoute from "@/app/api/token/sharelink/[key]/download/route";
import * as guidTokenRoute from "@/app/api/token/share/[guid]/[type]/[key]/route";
import * as keyTokenRoute from "@/app/api/token/share/download/[key]/route";
import * as templateTokenRoute from "@/app/api/token/template/[id]/[type]/route";
import * as keyRoute from "@/app/api/share/key/[key]/route";
import * as activityRoute from "@/app/api/share/[shareId]/activity/route";
import { getDb } from "@/db";
import { emails, events, fileTokens, files, shares, users } from "@/db/schema";
import { hashToken } from "@/lib/server/auth/tokens";
import { downloadByToken } from "@/lib/server/downloads/serve-download";
import { serveShareZip } from "@/lib/server/shares/serve-zip";
import { claimDownload, releaseDownload } from "@/lib/server/shares/single-download";
import { createTestUser, type TestUser } from "../../helpers/factories";
import { serveNode } from "../../helpers/node-server";
import { createFolder, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { deliverTo, startSmtpServer, type TestSmtpServer } from "../../helpers/smtp";
import { md5, openDatabase, randomFile, uploadBytes } from "../../helpers/upload-factories";
import { pngLike } from "../previews/fixtures";
import { unzip } from "../../helpers/unzip";
import { bearer, createShare, unlock, type ShareJson } from "./share-helpers";

// Downloads and zips answer on Node's own response (pages/api): tested over real HTTP.
let server: Awaited<ReturnType<typeof serveNode>>;
let base = "";
let smtp: TestSmtpServer;
const savedSmtpUrl = process.env.SMTP_URL;

beforeAll(async () => {
  server = await serveNode((req, res) => (req.url?.startsWith("/api/zip/share/") ? serveShareZip(req, res) : downloadByToken(req, res)));
  base = server.url;
  smtp = await startSmtpServer();
  process.env.SMTP_URL = smtp.url;
});
afterAll(async () => {
  await server.close();
  await smtp.close();
  if (savedSmtpUrl === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = savedSmtpUrl;
});
beforeAll(openDatabase, 180_000);

async function get(path: string, headers: Record<string, string> = {}, method = "GET") {
  const res = await fetch(`${base}${path}`, { method, headers });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body, json: () => JSON.parse(body.toString()) };
}
const expectJsonError = (res: Awaited<ReturnType<typeof get>>, status: number, code?: string) => {
  expect(res.status, res.body.toString()).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  if (code) expect(res.json().code).toBe(code);
};

const guidToken = (key: string, guid: string, type: string, token?: string) => call(guidTokenRoute.POST, { method: "POST", params: { key, guid, type }, headers: bearer(token) });
const keyToken = (key: string, token?: string) => call(keyTokenRoute.POST, { method: "POST", params: { key }, headers: bearer(token) });
const legacyToken = (key: string) => call(legacyKeyTokenRoute.POST, { method: "POST", params: { key } });
const dataToken = (key: string, dataId: number, type: string) => call(dataTokenRoute.POST, { method: "POST", params: { key, dataId: String(dataId), type } });
const download = (token: string) => get(`/api/file/download?token=${encodeURIComponent(token)}`);
const zipOf = (key: string, query = "", method = "GET") => get(`/api/zip/share/${encodeURIComponent(key)}${query}`, {}, method);

/** A folder with a text file, a PNG-typed binary and a subfolder with a file; plus a loose file. */
async function scene() {
  const owner = await createTestUser();
  const folder = await createFolder(owner, owner.privateRootId!, "Project");
  const sub = await createFolder(owner, folder.id, "Drafts");
  await createFolder(owner, sub.id, "Empty");
  // Typed image/png by its bytes (a signature), so the zip stores it as it is.
  const photo = pngLike(300_000);
  const readme = await uploadText(owner, folder.id, "readme.txt", "read me first");
  const image = await uploadBytes(owner, folder.id, "photo.png", photo.data, "image/png");
  const draft = await uploadText(owner, sub.id, "draft.md", "# draft\n".repeat(2000));
  const loose = await uploadText(owner, owner.privateRootId!, "loose.txt", "on its own");
  return { owner, folder, sub, photo, readme, image, draft, loose };
}

/**
 * The owner's activity view once the last transfer is recorded: a download is counted when its
 * last byte has gone out, which the client may see a moment before the record is written.
 */
async function activityOnceRecorded(owner: TestUser, shareId: number) {
  for (let i = 0; ; i++) {
    const res = await call(activityRoute.GET, { method: "GET", token: owner.token, params: { shareId: String(shareId) } });
    if ((res.body.objects?.length > 0 && res.body.nb_total_objects > 0) || i === 100) return res.body;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function tokenFor(share: ShareJson, guid: string, type = "download", access?: string) {
  const res = await guidToken(share.key, guid, type, access);
  expect(res.status, res.text).toBe(200);
  return res.body.token as string;
}

describe("link-share tokens and GET /file/download", () => {
  it("downloads a file of the share by GUID, recording the download for the owner and the timeline", async () => {
    const { owner, folder, image, photo } = await scene();
    const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }] });
    const token = await tokenFor(share, image.file.guid);
    const [row] = await (await getDb()).select().from(fileTokens).where(eq(fileTokens.tokenHash, hashToken(token)));
    expect(row).toMatchObject({ shareId: share.id, userId: null, type: "download" });
    const res = await download(token);
    expect(res.status).toBe(200);
    expect(md5(res.body)).toBe(photo.md5);
    expect(res.headers.get("content-length")).toBe(String(photo.data.length));
    const activity = await activityOnceRecorded(owner, share.id);
    expect(activity).toMatchObject({ downloads: 1 });
    expect(activity.objects[0]).toMatchObject({ kind: "download", file: image.version.id, file_name: "photo.png" });
    const [event] = await (await getDb()).select().from(events).where(and(eq(events.targetType, "file"), eq(events.targetId, image.file.id), eq(events.type, 3)));
    expect(event.actorId).toBeNull();
    expect((await get(`/api/file/download?token=${token}`, { range: "bytes=0-9" })).status).toBe(206);
  });

  it("gives a token by key alone for a one-file share (both paths), 400 when the share holds more", async () => {
    const { owner, folder, loose } = await scene();
    const single = await createShare(owner, { roots: [{ id: loose.version.id, entity_type: 1 }] });
    for (const res of [await keyToken(single.key), await legacyToken(single.key)]) {
      expect(res.status, res.text).toBe(200);
      const got = await download(res.body.token);
      expect(got.body.toString()).toBe("on its own");
    }
    const many = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }] });
    expectError(await keyToken(many.key), 400, "invalid_request");
  });

  it("refuses files outside the share (404), unknown types (400), and stops tokens of a deleted or expired share", async () => {
    const { owner, folder, readme, loose } = await scene();
    const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }] });
    expectError(await guidToken(share.key, loose.file.guid, "download"), 404, "not_found");
    expectError(await guidToken(share.key, readme.file.guid, "print"), 400, "invalid_request");
    expectError(await dataToken(share.key, loose.version.id, "preview"), 404, "not_found");
    const token = await tokenFor(share, readme.file.guid);
    await (await getDb()).update(shares).set({ expirationDate: new Date(Date.now() - 1000) }).where(eq(shares.id, share.id));
    expectJsonError(await download(token), 410, "link_expired");
    expectError(await guidToken(share.key, readme.file.guid, "download"), 410, "link_expired");
    expectJsonError(await zipOf(share.key), 410, "link_expired");
    await (await getDb()).delete(shares).where(eq(shares.id, share.id));
    expectJsonError(await download(token), 403);
    expectError(await guidToken(share.key, readme.file.guid, "download"), 404, "link_not_found");
  });

  it("never hands the original bytes of a preview-only link out, by any route", async () => {
    const { owner, folder, readme, loose } = await scene();
    const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }], flags: 2 });
    const single = await createShare(owner, { roots: [{ id: loose.version.id, entity_type: 1 }], flags: 2 });
    expectError(await guidToken(share.key, readme.file.guid, "download"), 403, "forbidden");
    expectError(await guidToken(share.key, readme.file.guid, "edit"), 403, "forbidden");
    expectError(await keyToken(single.key), 403, "forbidden");
    expectError(await legacyToken(single.key), 403, "forbidden");
    expectJsonError(await zipOf(share.key), 403, "forbidden");
    expect((await zipOf(single.key, "", "HEAD")).status).toBe(403);
    const preview = await tokenFor(share, readme.file.guid, "preview");
    expectJsonError(await download(preview), 403);
    const video = await dataToken(single.key, loose.version.id, "video");
    expect(video.status, video.text).toBe(200);
    expectJsonError(await download(video.body.token), 403);
    // A link turned preview-only later stops the download tokens it gave before.
    const open = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }] });
    const early = await tokenFor(open, readme.file.guid);
    await (await getDb()).update(shares).set({ flags: 2 }).where(eq(shares.id, open.id));
    expectJsonError(await download(early), 403);
  });

  it("gives preview tokens by GUID and by File id, counting previews (event 4)", async () => {
    const { owner, folder, readme } = await scene();
    const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }] });
    await tokenFor(share, readme.file.guid, "preview");
    expect((await dataToken(share.key, readme.version.id, "preview")).status).toBe(200);
    const activity = await call(activityRoute.GET, { method: "GET", token: owner.token, params: { shareId: String(share.id) } });
    expect(activity.body.previews).toBe(2);
    const previews = await (await getDb()).select().from(events).where(and(eq(events.targetType, "file"), eq(events.targetId, readme.file.id), eq(events.type, 4)));
    expect(previews).toHaveLength(2);
  });

  it("gives edit tokens only to edit links on a platform with editing (403 otherwise)", async () => {
    const { owner, folder, readme } = await scene();
    const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }], flags: 8 });
    expectError(await guidToken(share.key, readme.file.guid, "edit"), 403, "forbidden");
    const plain = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }] });
    expectError(await guidToken(plain.key, readme.file.guid, "edit"), 403, "forbidden");
  });

  it("needs the access token of a protected link for tokens and zips (401)", async () => {
    const { owner, folder, readme } = await scene();
    const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }], password: "let-me-in" });
    expectError(await guidToken(share.key, readme.file.guid, "download"), 401, "unauthorized");
    expectJsonError(await zipOf(share.key), 401, "unauthorized");
    const access = await unlock(share.key, "let-me-in");
    expect((await download(await tokenFor(share, readme.file.guid, "download", access))).body.toString()).toBe("read me first");
    expect((await zipOf(share.key, `?access_token=${access}`)).status).toBe(200);
  });

  it("answers 404 template_not_found for an unknown file template, after authentication", async () => {
    const user = await createTestUser();
    expectError(await call(templateTokenRoute.POST, { method: "POST", token: user.token, params: { id: "2000000000", type: "preview" } }), 404, "template_not_found");
    await expectAuthRequired(templateTokenRoute.POST, { method: "POST", params: { id: "1", type: "preview" } });
  });
});

describe("single-download links", () => {
  it("serve exactly one complete download under 20 concurrent requests, then answer link_exhausted", async () => {
    const { owner, image, photo } = await scene();
    const share = await createShare(owner, { roots: [{ id: image.version.id, entity_type: 1 }], flags: 128 });
    // Twenty visitors each hold a token before anyone downloads: the claim happens at the bytes.
    const tokens = await Promise.all(Array.from({ length: 20 }, () => keyToken(share.key)));
    expect(tokens.map((t) => t.status)).toEqual(Array(20).fill(200));
    const attempts = await Promise.all(tokens.map((t) => download(t.body.token)));
    const served = attempts.filter((a) => a.status === 200);
    expect(served).toHaveLength(1);
    expect(md5(served[0].body)).toBe(photo.md5);
    expect(attempts.filter((a) => a.status !== 200).every((a) => a.status === 410)).toBe(true);
    expectError(await call(keyRoute.GET, { method: "GET", params: { key: share.key } }), 410, "link_exhausted");
    expectJsonError(await zipOf(share.key), 410, "link_exhausted");
  });

  it("ignore ranges (a second ranged request would be a second download) and count a zip as the download", async () => {
    const { owner, folder, readme } = await scene();
    const share = await createShare(owner, { roots: [{ id: readme.version.id, entity_type: 1 }], flags: 128 });
    const token = (await keyToken(share.key)).body.token;
    const whole = await get(`/api/file/download?token=${token}`, { range: "bytes=0-3" });
    expect(whole.status).toBe(200);
    expect(whole.body.toString()).toBe("read me first");
    expectJsonError(await download(token), 410, "link_exhausted");
    const zipped = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }], flags: 128 });
    expect((await zipOf(zipped.key)).status).toBe(200);
    expectJsonError(await zipOf(zipped.key), 410, "link_exhausted");
  });

  it("give the download back when the transfer breaks (the claim is released, and only its own)", async () => {
    const { owner, loose } = await scene();
    const created = await createShare(owner, { roots: [{ id: loose.version.id, entity_type: 1 }], flags: 128 });
    const db = await getDb();
    const [row] = await db.select().from(shares).where(eq(shares.id, created.id));
    const claim = await claimDownload(db, row);
    await expect(claimDownload(db, row)).rejects.toMatchObject({ code: "link_exhausted" });
    await releaseDownload(db, row.id, new Date(claim!.getTime() - 1));
    await expect(claimDownload(db, row)).rejects.toMatchObject({ code: "link_exhausted" });
    await releaseDownload(db, row.id, claim);
    expect(await claimDownload(db, row)).toBeInstanceOf(Date);
  });

  it("give the download back when the client goes away mid-transfer", async () => {
    const owner = await createTestUser();
    const big = randomFile(24 * 1024 * 1024);
    const upload = await uploadBytes(owner, owner.privateRootId!, "big.bin", big.data);
    const share = await createShare(owner, { roots: [{ id: upload.version.id, entity_type: 1 }], flags: 128 });
    const token = (await keyToken(share.key)).body.token;
    const controller = new AbortController();
    const res = await fetch(`${base}/api/file/download?token=${token}`, { signal: controller.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    const db = await getDb();
    let consumed: Date | null = new Date();
    for (let i = 0; i < 100 && consumed; i++) {
      await new Promise((r) => setTimeout(r, 50));
      consumed = (await db.select().from(shares).where(eq(shares.id, share.id)))[0].consumedAt;
    }
    expect(consumed).toBeNull();
    const again = await download(token);
    expect(again.status).toBe(200);
    expect(md5(again.body)).toBe(big.md5);
  });
});

describe("GET /zip/share/(key)", () => {
  it("streams every live file with the right bytes in its folders, storing compressed formats as they are", async () => {
    const { owner, folder, photo, loose, draft } = await scene();
    const gone = await uploadText(owner, folder.id, "trashed.txt", "should not be there");
    await (await getDb()).update(files).set({ deletedAt: new Date() }).where(eq(files.id, gone.file.id));
    const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }, { id: loose.version.id, entity_type: 1 }], name: "Bundle" });
    const res = await zipOf(share.key);
    expect(res.status, res.body.toString().slice(0, 200)).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toContain('filename="Bundle.zip"');
    const entries = await unzip(res.body);
    expect([...entries.keys()].sort()).toEqual(["Project/", "Project/Drafts/", "Project/Drafts/Empty/", "Project/Drafts/draft.md", "Project/photo.png", "Project/readme.txt", "loose.txt"]);
    expect(entries.get("Project/readme.txt")!.data!.toString()).toBe("read me first");
    expect(entries.get("loose.txt")!.data!.toString()).toBe("on its own");
    expect(md5(entries.get("Project/photo.png")!.data!)).toBe(photo.md5);
    expect(entries.get("Project/photo.png")!.compressed).toBe(false);
    expect(entries.get("Project/Drafts/draft.md")!.compressed).toBe(true);
    expect(entries.get("Project/Drafts/draft.md")!.data!.length).toBe(draft.version.size);
    expect((await activityOnceRecorded(owner, share.id)).objects[0]).toMatchObject({ kind: "zip" });
    expect((await zipOf(share.key, "", "HEAD")).status).toBe(200);
  });

  it("answers 404 link_not_found for unknown keys and 405 for other methods", async () => {
    expectJsonError(await zipOf("no-such-key"), 404, "link_not_found");
    expectJsonError(await zipOf("no-such-key", "", "POST"), 405);
  });
});

/** The receipt mailed to `to`, delivered to this file's SMTP server. */
const deliver = (to: string) => deliverTo(smtp, to);

describe("download receipts (flag 64)", () => {
  it("mail the owner on the real SMTP server at each complete download, in their language", async () => {
    const { owner, readme } = await scene();
    const db = await getDb();
    await db.update(users).set({ language: "fr" }).where(eq(users.id, owner.id));
    const share = await createShare(owner, { roots: [{ id: readme.version.id, entity_type: 1 }], flags: 64, name: "Lecture" });
    expect((await download((await keyToken(share.key)).body.token)).status).toBe(200);
    const mail = await deliver(owner.email);
    expect(mail.text).toContain("readme.txt a été téléchargé grâce à votre lien « Lecture »");
    expect(mail.text).toContain(`/s/${share.key}`);
  });

  it("are queued for a zip of the whole share too", async () => {
    const { owner, folder } = await scene();
    const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }], flags: 64, name: "Everything" });
    expect((await zipOf(share.key)).status).toBe(200);
    await activityOnceRecorded(owner, share.id);
    const [mail] = await (await getDb()).select().from(emails).where(eq(emails.to, owner.email));
    expect(mail.object).toBe("Everything.zip was downloaded through your link");
  });

  it("are not sent without the flag", async () => {
    const { owner, readme } = await scene();
    const share = await createShare(owner, { roots: [{ id: readme.version.id, entity_type: 1 }] });
    expect((await download((await keyToken(share.key)).body.token)).status).toBe(200);
    expect((await activityOnceRecorded(owner, share.id)).downloads).toBe(1);
    expect(await (await getDb()).select().from(emails).where(eq(emails.to, owner.email))).toHaveLength(0);
  });
});

