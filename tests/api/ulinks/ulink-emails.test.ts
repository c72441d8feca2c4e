import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as oneRoute from "@/app/api/ulink/email/[ulinkEmailId]/route";
import * as createRoute from "@/app/api/ulink/email/route";
import * as uploadRoute from "@/app/api/ulink/key/[key]/upload/route";
import * as listLinksRoute from "@/app/api/ulinks/route";
import * as listRoute from "@/app/api/ulinks/emails/route";
import { getDb } from "@/db";
import { ulinks, users } from "@/db/schema";
import { ulinkEmailResponse } from "@/lib/contracts/ulinks";
import { createTestUser, latestLog, unique } from "../../helpers/factories";
import { createFileScene, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { allRightsBut, grantRight } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { withLocalSmtp } from "../../helpers/smtp";
import { multipartBody } from "../../helpers/upload-factories";
import { deliverTo } from "./mail-delivery";
import { byKey } from "./ulink-helpers";

const smtp = withLocalSmtp(openDatabase, OPEN_TIMEOUT);

const post = (token: string | null, body: unknown) => call(createRoute.POST, { method: "POST", token, body });
const read = (token: string, id: number) => call(oneRoute.GET, { method: "GET", token, params: { ulinkEmailId: String(id) } });
const edit = (token: string, id: number, body: unknown) => call(oneRoute.PUT, { method: "PUT", token, params: { ulinkEmailId: String(id) }, body });
const remove = (token: string, id: number) => call(oneRoute.DELETE, { method: "DELETE", token, params: { ulinkEmailId: String(id) } });
const address = () => `${unique("rcpt")}@example.test`;

function deposit(key: string, name: string) {
  const { body, contentType } = multipartBody([{ name: "targetFile", filename: name, data: Buffer.from("dropped") }]);
  return call(uploadRoute.POST, { method: "POST", params: { key }, rawBody: body, headers: { "content-type": contentType } });
}

async function scene() {
  const { owner, other, folder } = await createFileScene();
  const email = address();
  const db = await getDb();
  await db.update(users).set({ email }).where(eq(users.id, owner.id));
  return { owner, other, folder, ownerEmail: email };
}

describe("POST /ulink/email", () => {
  it("gives each recipient a drop link of their own, mailed with the owner's subject and message", async () => {
    const { owner, folder, ownerEmail } = await scene();
    const [alice, bob] = [address(), address()];
    const res = await post(owner.token, {
      folder_id: folder.id,
      object: "Your documents, please",
      content: "Please drop the signed contract.",
      recipients: [{ email: alice }, { email: bob, phone: "+33612345678" }, { email: alice.toUpperCase() }],
      alert: true,
    });
    expect(res.status, res.text).toBe(201);
    const sent = ulinkEmailResponse.parse(res.body);
    expect(sent).toMatchObject({ object: "Your documents, please", owner_id: String(owner.id), folder_id: folder.id, folder: folder.name, alert: true });
    expect(sent.recipients.map((r) => r.email)).toEqual([alice, bob]);
    expect(sent.ulink_id).toBe(sent.recipients[0].ulink_id);
    expect((await latestLog("ulink_email", sent.id))?.type).toBe("ADMLLOG_INSERT");

    const db = await getDb();
    const links = await db.select().from(ulinks).where(eq(ulinks.ulinkEmailId, sent.id));
    expect(new Set(links.map((l) => l.key)).size).toBe(2);
    const bobLink = links.find((l) => l.recipientEmail === bob)!;
    expect(bobLink).toMatchObject({ phone: "+33612345678", flags: 4 | 32 });

    for (const link of links) {
      const mail = await deliverTo(smtp(), link.recipientEmail!);
      expect(mail.subject).toBe("Your documents, please");
      expect(mail.text).toContain("Please drop the signed contract.");
      expect(mail.text).toContain(`/d/${link.key}`);
      const others = links.filter((l) => l.id !== link.id);
      for (const o of others) expect(mail.text).not.toContain(o.key);
      expect((await byKey(link.key)).status).toBe(200);
    }

    // A deposit through Alice's link is hers: counted on her link, named in the owner's receipt.
    const aliceLink = links.find((l) => l.recipientEmail === alice)!;
    expect((await deposit(aliceLink.key, "contract.pdf")).status).toBe(201);
    const again = await read(owner.token, sent.id);
    expect(again.body.recipients.find((r: { email: string }) => r.email === alice).nb_deposits).toBe(1);
    const receipt = await deliverTo(smtp(), ownerEmail, (m) => m.subject.includes("contract.pdf"));
    expect(receipt.text).toContain(`Dropped by: ${alice}`);
  });

  it("refuses bad bodies (400) and unknown folders (404)", async () => {
    const { owner, folder } = await scene();
    expectError(await post(owner.token, { folder_id: folder.id, recipients: [] }), 400, "invalid_request");
    expectError(await post(owner.token, { folder_id: folder.id, recipients: [{ email: "not-an-address" }] }), 400, "invalid_request");
    expectError(await post(owner.token, { folder_id: folder.id, object: "two\nlines", recipients: [{ email: address() }] }), 400, "invalid_request");
    expectError(await post(owner.token, { folder_id: 2_000_000_000, recipients: [{ email: address() }] }), 404, "not_found");
  });

  it("needs a token and the share right on the folder", async () => {
    const { other, folder } = await scene();
    const body = { folder_id: folder.id, recipients: [{ email: address() }] };
    await expectAuthRequired(createRoute.POST, { method: "POST", body });
    expectError(await post(other.token, body), 404, "not_found");
    const noShare = await createTestUser();
    await grantRight(folder.id, noShare.id, allRightsBut("share"));
    expectError(await post(noShare.token, body), 403, "forbidden");
  });
});

describe("GET, PUT, DELETE /ulink/email/(id) and GET /ulinks/emails", () => {
  async function sentBy() {
    const s = await scene();
    const res = await post(s.owner.token, { folder_id: s.folder.id, object: "Drop", content: "Hi", recipients: [{ email: address() }, { email: address() }] });
    expect(res.status, res.text).toBe(201);
    return { ...s, sent: ulinkEmailResponse.parse(res.body) };
  }

  it("lists and reads mine; their links are not in GET /ulinks", async () => {
    const { owner, other, sent } = await sentBy();
    const res = await call(listRoute.GET, { method: "GET", token: owner.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ nb_total_objects: 1, objects: [{ id: sent.id }] });
    expect((await call(listRoute.GET, { method: "GET", token: other.token })).body.nb_total_objects).toBe(0);
    expect((await call(listLinksRoute.GET, { method: "GET", token: owner.token })).body.nb_total_objects).toBe(0);
    const one = await read(owner.token, sent.id);
    expect(ulinkEmailResponse.parse(one.body)).toEqual(sent);
    expectError(await read(other.token, sent.id), 404, "not_found");
    expectError(await read(owner.token, 2_000_000_000), 404, "not_found");
    await expectAuthRequired(listRoute.GET, { method: "GET" });
    await expectAuthRequired(oneRoute.GET, { method: "GET", params: { ulinkEmailId: String(sent.id) } });
  });

  it("updates the message and every link's receipt and expiration", async () => {
    const { owner, other, sent } = await sentBy();
    const expiration = new Date(Date.now() + 86_400_000).toISOString();
    const res = await edit(owner.token, sent.id, { object: "New subject", alert: true, expiration_date: expiration });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ object: "New subject", content: "Hi", alert: true, expiration_date: expiration });
    const db = await getDb();
    const links = await db.select().from(ulinks).where(eq(ulinks.ulinkEmailId, sent.id));
    expect(links.every((l) => l.flags === 4 && l.expirationDate?.toISOString() === expiration)).toBe(true);
    expectError(await edit(owner.token, sent.id, { expiration_date: "2001-01-01" }), 400, "invalid_request");
    expectError(await edit(other.token, sent.id, { object: "x" }), 404, "not_found");
    await expectAuthRequired(oneRoute.PUT, { method: "PUT", params: { ulinkEmailId: String(sent.id) }, body: { object: "x" } });
  });

  it("deletes it with every recipient's link", async () => {
    const { owner, other, sent } = await sentBy();
    expectError(await remove(other.token, sent.id), 404, "not_found");
    const db = await getDb();
    const keys = (await db.select().from(ulinks).where(eq(ulinks.ulinkEmailId, sent.id))).map((l) => l.key);
    expect((await remove(owner.token, sent.id)).status).toBe(204);
    for (const key of keys) expectError(await byKey(key), 404, "link_not_found");
    expectError(await read(owner.token, sent.id), 404, "not_found");
    expect((await latestLog("ulink_email", sent.id))?.type).toBe("ADMLLOG_DELETE");
  });
});
