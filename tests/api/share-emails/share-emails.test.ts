import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as oneRoute from "@/app/api/share/email/[shareEmailId]/route";
import * as createRoute from "@/app/api/share/email/route";
import * as listRoute from "@/app/api/shares/emails/route";
import * as keyRoute from "@/app/api/share/key/[key]/route";
import * as guidTokenRoute from "@/app/api/token/share/[guid]/[type]/[key]/route";
import { getDb } from "@/db";
import { shareAccesses, shareEmailRecipients, shareRoots, shares } from "@/db/schema";
import { shareEmailResponse } from "@/lib/contracts/share-emails";
import { newLinkKey } from "@/lib/server/links/link-key";
import { findVisitRecipient } from "@/lib/server/share-emails/visit-recipient";
import { redeemShareToken } from "@/lib/server/shares/share-tokens";
import { createAdmin, latestLog, unique, type TestUser } from "../../helpers/factories";
import { createFileScene, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { withLocalSmtp } from "../../helpers/smtp";
import { deliverTo } from "../ulinks/mail-delivery";

const smtp = withLocalSmtp(openDatabase, OPEN_TIMEOUT);

const post = (token: string | null, body: unknown) => call(createRoute.POST, { method: "POST", token, body });
const read = (token: string, id: number) => call(oneRoute.GET, { method: "GET", token, params: { shareEmailId: String(id) } });
const edit = (token: string, id: number, body: unknown) => call(oneRoute.PUT, { method: "PUT", token, params: { shareEmailId: String(id) }, body });
const remove = (token: string, id: number) => call(oneRoute.DELETE, { method: "DELETE", token, params: { shareEmailId: String(id) } });
const address = () => `${unique("rcpt")}@example.test`;

/** A link share of `owner` on a folder, written directly (the share routes are tested in tests/api/shares). */
async function shareOf(owner: TestUser, folderId: number, values: Partial<typeof shares.$inferInsert> = {}) {
  const db = await getDb();
  const [share] = await db.insert(shares).values({ key: newLinkKey(), ownerId: owner.id, flags: 4, name: "Quarterly", ...values }).returning();
  await db.insert(shareRoots).values({ shareId: share.id, entityType: 0, objectId: folderId });
  return share;
}

async function scene() {
  const { owner, other, folder, file } = await createFileScene();
  const share = await shareOf(owner, folder.id);
  return { owner, other, folder, file, share };
}

async function send(owner: TestUser, shareId: number, recipients: string[]) {
  const res = await post(owner.token, { share_id: shareId, object: "The figures", content: "Here they are.", recipients: recipients.map((email) => ({ email })) });
  expect(res.status, res.text).toBe(201);
  return shareEmailResponse.parse(res.body);
}

describe("POST /share/email", () => {
  it("mails each recipient the share with a personal key, counted per recipient", async () => {
    const { owner, share } = await scene();
    const [alice, bob] = [address(), address()];
    const sent = await send(owner, share.id, [alice, bob, alice]);
    expect(sent).toMatchObject({ object: "The figures", content: "Here they are.", owner_id: String(owner.id), share_id: share.id, stats: { nb_download: 0, nb_preview: 0 } });
    expect(sent.recipients.map((r) => r.email)).toEqual([alice, bob]);
    expect((await latestLog("share_email", sent.id))?.type).toBe("ADMLLOG_INSERT");

    const db = await getDb();
    const rows = await db.select().from(shareEmailRecipients).where(eq(shareEmailRecipients.shareEmailId, sent.id));
    expect(new Set(rows.map((r) => r.key)).size).toBe(2);
    for (const row of rows) {
      const personal = `http://coffre.test/s/${share.key}?r=${row.key}`;
      expect(sent.recipients.find((r) => r.email === row.email)?.url).toBe(personal);
      const mail = await deliverTo(smtp(), row.email);
      expect(mail.subject).toBe("The figures");
      expect(mail.text).toContain("Here they are.");
      expect(mail.text).toContain(personal);
    }

    // Visits through Alice's address (share_accesses.recipient_id, set from ?r=) show on her line only.
    const aliceRow = rows.find((r) => r.email === alice)!;
    const recipientId = await findVisitRecipient(db, share.id, aliceRow.key);
    expect(recipientId).toBe(aliceRow.id);
    const base = { shareId: share.id, visitor: "v1", recipientId };
    await db.insert(shareAccesses).values([
      { ...base, kind: "visit" },
      { ...base, kind: "preview" },
      { ...base, kind: "download" },
      { ...base, kind: "zip", date: new Date("2030-01-02T03:04:05Z") },
      { shareId: share.id, visitor: "v2", kind: "download", recipientId: null },
    ]);
    const res = await read(owner.token, sent.id);
    const withStats = shareEmailResponse.parse(res.body);
    expect(withStats.recipients.find((r) => r.email === alice)).toMatchObject({ visits: 1, previews: 1, downloads: 2, last_visit: "2030-01-02T03:04:05.000Z" });
    expect(withStats.recipients.find((r) => r.email === bob)).toMatchObject({ visits: 0, previews: 0, downloads: 0, last_visit: null });
    expect(withStats.stats).toEqual({ nb_download: 2, nb_preview: 1 });
  });

  it("credits visits, previews and downloads through the public routes to the recipient of `r`", async () => {
    const { owner, share, file } = await scene();
    const sent = await send(owner, share.id, [address()]);
    const db = await getDb();
    const [row] = await db.select().from(shareEmailRecipients).where(eq(shareEmailRecipients.shareEmailId, sent.id));
    const query = { r: row.key };
    expect((await call(keyRoute.GET, { params: { key: share.key }, query })).status).toBe(200);
    const preview = await call(guidTokenRoute.POST, { method: "POST", params: { key: share.key, guid: file.guid, type: "preview" }, query });
    expect(preview.status, preview.text).toBe(200);
    const download = await call(guidTokenRoute.POST, { method: "POST", params: { key: share.key, guid: file.guid, type: "download" }, query });
    expect(download.status, download.text).toBe(200);
    // The download itself is counted when its last byte has gone out (tests/api/shares); its token carries the recipient.
    expect((await redeemShareToken(db, download.body.token, "download"))?.recipientId).toBe(row.id);
    const stats = shareEmailResponse.parse((await read(owner.token, sent.id)).body);
    expect(stats.recipients[0]).toMatchObject({ visits: 1, previews: 1 });
    // Without `r`, nothing is credited to anyone.
    await call(keyRoute.GET, { params: { key: share.key } });
    expect(shareEmailResponse.parse((await read(owner.token, sent.id)).body).recipients[0]).toMatchObject({ visits: 1 });
  });

  it("credits a recipient key only to its own share", async () => {
    const { owner, folder, share } = await scene();
    const sent = await send(owner, share.id, [address()]);
    const db = await getDb();
    const [row] = await db.select().from(shareEmailRecipients).where(eq(shareEmailRecipients.shareEmailId, sent.id));
    const another = await shareOf(owner, folder.id);
    expect(await findVisitRecipient(db, another.id, row.key)).toBeNull();
    expect(await findVisitRecipient(db, share.id, "not-a-key")).toBeNull();
    expect(await findVisitRecipient(db, share.id, null)).toBeNull();
  });

  it("refuses bad bodies (400), unknown shares (404) and shares that no longer serve (410)", async () => {
    const { owner, folder, share } = await scene();
    expectError(await post(owner.token, { share_id: share.id, recipients: [] }), 400, "invalid_request");
    expectError(await post(owner.token, { share_id: share.id, recipients: [{ email: "nope" }] }), 400, "invalid_request");
    expectError(await post(owner.token, { recipients: [{ email: address() }] }), 400, "invalid_request");
    expectError(await post(owner.token, { share_id: 2_000_000_000, recipients: [{ email: address() }] }), 404, "not_found");
    const expired = await shareOf(owner, folder.id, { expirationDate: new Date(Date.now() - 1000) });
    expectError(await post(owner.token, { share_id: expired.id, recipients: [{ email: address() }] }), 410, "link_expired");
  });

  it("needs a token and the share's ownership (another user's share is a 404)", async () => {
    const { other, share } = await scene();
    const body = { share_id: share.id, recipients: [{ email: address() }] };
    await expectAuthRequired(createRoute.POST, { method: "POST", body });
    expectError(await post(other.token, body), 404, "not_found");
  });
});

describe("GET, PUT, DELETE /share/email/(id) and GET /shares/emails", () => {
  it("lists and reads mine only; an administrator may read", async () => {
    const { owner, other, share } = await scene();
    const sent = await send(owner, share.id, [address()]);
    const res = await call(listRoute.GET, { method: "GET", token: owner.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ nb_total_objects: 1, nb_objets: 1, objects: [{ id: sent.id }] });
    expect((await call(listRoute.GET, { method: "GET", token: other.token })).body.nb_total_objects).toBe(0);
    expectError(await call(listRoute.GET, { method: "GET", token: owner.token, query: { offset_start: "-1" } }), 400, "invalid_request");
    expect(shareEmailResponse.parse((await read(owner.token, sent.id)).body)).toEqual(sent);
    expect((await read((await createAdmin()).token, sent.id)).status).toBe(200);
    expectError(await read(other.token, sent.id), 404, "not_found");
    expectError(await read(owner.token, 2_000_000_000), 404, "not_found");
    await expectAuthRequired(listRoute.GET, { method: "GET" });
    await expectAuthRequired(oneRoute.GET, { method: "GET", params: { shareEmailId: String(sent.id) } });
  });

  it("updates subject and message without mailing again", async () => {
    const { owner, other, share } = await scene();
    const to = address();
    const sent = await send(owner, share.id, [to]);
    await deliverTo(smtp(), to);
    const res = await edit(owner.token, sent.id, { object: "Corrected figures" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ object: "Corrected figures", content: "Here they are." });
    expect((await latestLog("share_email", sent.id))?.type).toBe("ADMLLOG_UPDATE");
    expect(smtp().received.filter((m) => m.to.includes(to))).toHaveLength(1);
    expectError(await edit(owner.token, sent.id, { object: "a\nb" }), 400, "invalid_request");
    expectError(await edit(other.token, sent.id, { object: "x" }), 404, "not_found");
    await expectAuthRequired(oneRoute.PUT, { method: "PUT", params: { shareEmailId: String(sent.id) }, body: { object: "x" } });
  });

  it("deletes the sending and its recipients, not the share", async () => {
    const { owner, other, share } = await scene();
    const sent = await send(owner, share.id, [address()]);
    expectError(await remove(other.token, sent.id), 404, "not_found");
    await expectAuthRequired(oneRoute.DELETE, { method: "DELETE", params: { shareEmailId: String(sent.id) } });
    expect((await remove(owner.token, sent.id)).status).toBe(204);
    expectError(await read(owner.token, sent.id), 404, "not_found");
    const db = await getDb();
    expect(await db.select().from(shareEmailRecipients).where(eq(shareEmailRecipients.shareEmailId, sent.id))).toHaveLength(0);
    expect(await db.select().from(shares).where(eq(shares.id, share.id))).toHaveLength(1);
    expect((await latestLog("share_email", sent.id))?.type).toBe("ADMLLOG_DELETE");
  });
});
