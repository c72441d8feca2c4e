import { and, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as oneRoute from "@/app/api/ulink/[ulinkId]/route";
import * as passcheckRoute from "@/app/api/ulink/key/[key]/passcheck/route";
import * as smsRoute from "@/app/api/ulink/key/[key]/sms/route";
import * as uploadRoute from "@/app/api/ulink/key/[key]/upload/route";
import { getDb } from "@/db";
import { events, files, linkAccessTokens, logs, smsMessages, ulinkDeposits, users } from "@/db/schema";
import { depositResponse } from "@/lib/contracts/ulinks";
import { createTestUser, unique } from "../../helpers/factories";
import { createFileScene, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { allRightsBut, grantRight, createFolder } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { withLocalSmtp } from "../../helpers/smtp";
import { filesNamed, md5, multipartBody, type Part, storedMd5 } from "../../helpers/upload-factories";
import { deliverTo, outboxFor } from "./mail-delivery";
import { byKey, createLink, expire } from "./ulink-helpers";

const smtp = withLocalSmtp(openDatabase, OPEN_TIMEOUT);

type Options = { accessToken?: string; asQuery?: boolean; fields?: Part[]; ip?: string };

function deposit(key: string, name: string, data: string | Buffer, options: Options = {}) {
  const { body, contentType } = multipartBody([...(options.fields ?? []), { name: "targetFile", filename: name, data: Buffer.from(data) }]);
  const headers: Record<string, string> = { "content-type": contentType, "x-forwarded-for": options.ip ?? "198.51.100.7" };
  if (options.accessToken && !options.asQuery) headers.authorization = `Bearer ${options.accessToken}`;
  const query = options.accessToken && options.asQuery ? { access_token: options.accessToken } : undefined;
  return call(uploadRoute.POST, { method: "POST", params: { key }, rawBody: body, headers, query });
}

const passcheck = (key: string, body: unknown, ip = "198.51.100.7") => call(passcheckRoute.POST, { method: "POST", params: { key }, body, headers: { "x-forwarded-for": ip } });

async function liveFilesIn(folderId: number) {
  const db = await getDb();
  const found = await db.select().from(files).where(eq(files.folderId, folderId));
  return found.filter((f) => f.deletedAt === null).map((f) => f.name).sort();
}

/** An owner with a real mailbox, a folder holding report.txt, and a drop link on it. */
async function scene(body: Record<string, unknown> = {}) {
  const { owner, folder, file, version } = await createFileScene({ name: "report.txt", text: "original" });
  const email = `${unique("owner")}@example.test`;
  const db = await getDb();
  await db.update(users).set({ email }).where(eq(users.id, owner.id));
  const link = await createLink(owner, { folder_id: folder.id, name: "Supplier drop", ...body });
  return { owner, email, folder, file, version, link };
}

describe("POST /ulink/key/(key)/upload", () => {
  it("drops a file into the link's folder, records the deposit, a type 5 event and a guest log entry", async () => {
    const { owner, folder, link } = await scene();
    const res = await deposit(link.key, "invoice.pdf", "%PDF-1.4 fake");
    expect(res.status, res.text).toBe(201);
    expect(depositResponse.strict().parse(res.body)).toEqual({ size: 13, hash: md5(Buffer.from("%PDF-1.4 fake")) });
    const [dropped] = await filesNamed(folder.id, "invoice.pdf");
    expect(dropped.file.ownerId).toBe(owner.id);
    expect(await storedMd5(dropped.versions[0].id)).toEqual({ md5: md5(Buffer.from("%PDF-1.4 fake")), size: 13 });

    const db = await getDb();
    const [row] = await db.select().from(ulinkDeposits).where(eq(ulinkDeposits.ulinkId, link.id));
    expect(row).toMatchObject({ fileId: dropped.file.id, name: "invoice.pdf", size: 13, ip: "198.51.100.7" });
    const [event] = await db.select().from(events).where(and(eq(events.targetType, "folder"), eq(events.targetId, folder.id), eq(events.type, 5)));
    expect(event).toMatchObject({ actorId: null });
    const [log] = await db.select().from(logs).where(and(eq(logs.objectType, "ulink"), eq(logs.objectId, String(link.id)))).orderBy(desc(logs.id)).limit(1);
    expect(log).toMatchObject({ type: "ADMLLOG_INSERT", userName: "guest", userId: null, object: "invoice.pdf" });
    // No receipt asked (flag 4 off): no mail.
    expect(await outboxFor((await db.select().from(users).where(eq(users.id, owner.id)))[0].email)).toHaveLength(0);
  });

  it("never overwrites: an existing name gets a numbered name and the original is unchanged", async () => {
    const { folder, file, version, link } = await scene();
    const res = await deposit(link.key, "report.txt", "intruder");
    expect(res.status, res.text).toBe(201);
    expect(res.text).not.toContain("report (");
    const [original] = await filesNamed(folder.id, "report.txt");
    expect(original.file.id).toBe(file.id);
    expect(original.versions.map((v) => v.id)).toEqual([version.id]);
    expect((await storedMd5(version.id)).md5).toBe(md5(Buffer.from("original")));
    const names = await liveFilesIn(folder.id);
    expect(names).toHaveLength(2);
    const numbered = names.find((n) => n !== "report.txt")!;
    expect(numbered).toMatch(/^report.*\.txt$/);
    const [copy] = await filesNamed(folder.id, numbered);
    expect((await storedMd5(copy.versions[0].id)).md5).toBe(md5(Buffer.from("intruder")));
  });

  it("ignores a folderId or targetPath sent in the form: the link decides", async () => {
    const { owner, folder, link } = await scene();
    const elsewhere = await createFolder(owner, owner.privateRootId!, unique("elsewhere_"));
    const res = await deposit(link.key, "placed.txt", "x", { fields: [{ name: "folderId", value: String(elsewhere.id) }, { name: "targetPath", value: "sub/dir" }] });
    expect(res.status, res.text).toBe(201);
    expect(await liveFilesIn(elsewhere.id)).toEqual([]);
    expect(await liveFilesIn(folder.id)).toContain("placed.txt");
  });

  it("mails the owner one receipt per deposit on the real SMTP server (flag 4), chunked included", async () => {
    const { email, folder, link } = await scene({ alert: true });
    const res = await deposit(link.key, "delivery-note.txt", "hello owner");
    expect(res.status, res.text).toBe(201);
    const mail = await deliverTo(smtp(), email, (m) => m.subject.includes("delivery-note.txt"));
    expect(mail.subject).toContain(folder.name);
    expect(mail.text).toContain("Supplier drop");
    expect(mail.text).toContain("delivery-note.txt");

    // Chunked: two requests, one file, one mail (when the file is complete).
    const data = Buffer.from("0123456789abcdefghij");
    const fields = (i: number): Part[] => [
      { name: "chunk", value: String(i) },
      { name: "chunks", value: "2" },
      { name: "chunksSize", value: "10" },
      { name: "fileSize", value: "20" },
    ];
    const first = await deposit(link.key, "chunked.bin", data.subarray(0, 10), { fields: fields(0) });
    expect(first.status, first.text).toBe(200);
    expect(first.text).toBe("OK");
    expect(await liveFilesIn(folder.id)).not.toContain("chunked.bin");
    const second = await deposit(link.key, "chunked.bin", data.subarray(10), { fields: fields(1) });
    expect(second.status, second.text).toBe(201);
    expect(second.body).toEqual({ size: 20, hash: md5(data) });
    await deliverTo(smtp(), email, (m) => m.subject.includes("chunked.bin"));
    const receipts = (await outboxFor(email)).filter((m) => m.object.includes("chunked.bin"));
    expect(receipts).toHaveLength(1);
  });

  it("refuses unknown, deleted and expired keys, and destinations gone", async () => {
    const { owner, folder, link } = await scene();
    expectError(await deposit("no-such-key-anywhere", "a.txt", "a"), 404, "link_not_found");
    await expire(link.id);
    expectError(await deposit(link.key, "a.txt", "a"), 410, "link_expired");
    const other = await createLink(owner, { folder_id: folder.id });
    const removed = await call(oneRoute.DELETE, { method: "DELETE", token: owner.token, params: { ulinkId: String(other.id) } });
    expect(removed.status).toBe(204);
    expectError(await deposit(other.key, "a.txt", "a"), 404, "link_not_found");
    expect(await liveFilesIn(folder.id)).toEqual(["report.txt"]);
  });

  it("refuses a deposit the owner could no longer make (write right lost): 403, nothing stored", async () => {
    const { owner: host, folder } = await createFileScene();
    const guest = await createTestUser();
    await grantRight(folder.id, guest.id, allRightsBut());
    const link = await createLink(guest, { folder_id: folder.id });
    await grantRight(folder.id, guest.id, allRightsBut("write"));
    expectError(await deposit(link.key, "late.txt", "late"), 403, "forbidden");
    expect(await liveFilesIn(folder.id)).not.toContain("late.txt");
    expect(host.id).toBeGreaterThan(0);
  });

  it("refuses bad requests: no file part (400), and other methods (405)", async () => {
    const { link } = await scene();
    const { body, contentType } = multipartBody([{ name: "note", value: "no file" }]);
    expectError(await call(uploadRoute.POST, { method: "POST", params: { key: link.key }, rawBody: body, headers: { "content-type": contentType } }), 400, "invalid_request");
    expectError(await call(uploadRoute.GET, { method: "GET", params: { key: link.key } }), 405, "method_not_allowed");
  });
});

describe("protected drop links", () => {
  it("needs the access token of passcheck (4 h) to deposit; a wrong password is a 403", async () => {
    const { folder, link } = await scene({ password: "open-sesame" });
    expect((await byKey(link.key)).body).toMatchObject({ password_required: true, code_required: false });
    expectError(await deposit(link.key, "a.txt", "a"), 401, "unauthorized");
    expectError(await deposit(link.key, "a.txt", "a", { accessToken: "made-up-token" }), 401, "unauthorized");
    expectError(await passcheck(link.key, { password: "wrong" }), 403, "forbidden");
    expectError(await passcheck(link.key, {}), 400, "invalid_request");

    const ok = await passcheck(link.key, { password: "open-sesame" });
    expect(ok.status, ok.text).toBe(200);
    const token = ok.body.access_token as string;
    expect(token).toEqual(expect.any(String));
    const db = await getDb();
    const [stored] = await db.select().from(linkAccessTokens).where(and(eq(linkAccessTokens.linkType, "ulink"), eq(linkAccessTokens.linkId, link.id)));
    expect(stored.expiresAt.getTime() - Date.now()).toBeGreaterThan(4 * 3600_000 - 60_000);
    expect(stored.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(4 * 3600_000);
    expect((await deposit(link.key, "a.txt", "a", { accessToken: token })).status).toBe(201);
    expect((await deposit(link.key, "b.txt", "b", { accessToken: token, asQuery: true })).status).toBe(201);
    expect(await liveFilesIn(folder.id)).toEqual(["a.txt", "b.txt", "report.txt"]);

    // A token of one link opens no other.
    const { link: second } = await scene({ password: "open-sesame" });
    expectError(await deposit(second.key, "c.txt", "c", { accessToken: token }), 401, "unauthorized");
  });

  it("throttles brute-forced passwords (429 with Retry-After)", async () => {
    const { link } = await scene({ password: "long-and-right" });
    const ip = "203.0.113.99";
    let last = await passcheck(link.key, { password: "guess-0" }, ip);
    for (let i = 1; i < 12 && last.status !== 429; i++) last = await passcheck(link.key, { password: `guess-${i}` }, ip);
    expectError(last, 429, "too_many_requests");
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
    // Even the right password waits now.
    expectError(await passcheck(link.key, { password: "long-and-right" }, ip), 429, "too_many_requests");
  });

  it("sends an SMS code to the link's phone and accepts it once", async () => {
    const phone = `+3361${String(Date.now()).slice(-7)}`;
    const { link } = await scene({ phone });
    expect((await byKey(link.key)).body).toMatchObject({ password_required: false, code_required: true });
    expectError(await deposit(link.key, "a.txt", "a"), 401, "unauthorized");
    const sent = await call(smsRoute.POST, { method: "POST", params: { key: link.key } });
    expect(sent.status, sent.text).toBe(204);
    expect(sent.text).not.toContain(phone);
    const db = await getDb();
    const [sms] = await db.select().from(smsMessages).where(eq(smsMessages.to, phone)).orderBy(desc(smsMessages.id)).limit(1);
    const code = sms.body.match(/\d{6}/)![0];
    const ok = await passcheck(link.key, { code });
    expect(ok.status, ok.text).toBe(200);
    expect((await deposit(link.key, "a.txt", "a", { accessToken: ok.body.access_token })).status).toBe(201);
    expectError(await passcheck(link.key, { code }), 403, "forbidden");
  });

  it("refuses the SMS operation on a link without phone (400) and on unknown keys (404)", async () => {
    const { link } = await scene();
    expectError(await call(smsRoute.POST, { method: "POST", params: { key: link.key } }), 400, "invalid_request");
    expectError(await call(smsRoute.POST, { method: "POST", params: { key: "unknown-key-here" } }), 404, "link_not_found");
    expectError(await passcheck("unknown-key-here", { password: "x" }), 404, "link_not_found");
  });
});
