import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as readRoute from "@/app/api/signatures/[signatureId]/route";
import * as activitiesRoute from "@/app/api/signatures/[signatureId]/activities/route";
import * as remindAllRoute from "@/app/api/signatures/[signatureId]/actors/remind/route";
import * as remindOneRoute from "@/app/api/signatures/[signatureId]/actors/[actorId]/remind/route";
import { getDb } from "@/db";
import { emails, signatureRequests } from "@/db/schema";
import { createTestUser, unique } from "../../helpers/factories";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { call, expectError } from "../../helpers/http";
import { pdfText } from "../../helpers/pdfsig";
import { deliverTo, withLocalSmtp } from "../../helpers/smtp";
import { api, draftWithSigners, ok, signAll, tokenFromMail, waitDone } from "./signature-helpers";

const smtp = withLocalSmtp(openDatabase, OPEN_TIMEOUT);

const emailOf = (name: string) => `${unique(name)}@example.test`;
const put = (token: string | undefined, id: number, body: Record<string, unknown>) => call(readRoute.PUT, { method: "PUT", token, params: { signatureId: String(id) }, body });
const remindAll = (token: string | undefined, id: number, body?: Record<string, unknown>) => call(remindAllRoute.POST, { method: "POST", token, params: { signatureId: String(id) }, body });
const remindOne = (token: string | undefined, id: number, actorId: number, body?: Record<string, unknown>) =>
  call(remindOneRoute.POST, { method: "POST", token, params: { signatureId: String(id), actorId: String(actorId) }, body });

async function newestMail(to: string) {
  const db = await getDb();
  const [row] = await db.select().from(emails).where(eq(emails.to, to)).orderBy(desc(emails.id)).limit(1);
  return row;
}

describe("the invitation's subject and message", () => {
  it("are stored, editable while draft, and mailed: the subject as written, the message escaped in HTML", async () => {
    const email = emailOf("msg");
    const { owner, request } = await draftWithSigners({ signers: [email], body: { subject: "Lease {{link}} for flat 4", message: "Hi,\nplease sign <b>today</b> & thanks" } });
    expect(request.subject).toBe("Lease {{link}} for flat 4");
    expect(request.message).toBe("Hi,\nplease sign <b>today</b> & thanks");
    const changed = ok(await put(owner.token, request.id, { subject: "Your lease for flat 4", message: "Hi,\nplease sign <b>today</b> & thanks" }));
    expect(changed.subject).toBe("Your lease for flat 4");
    ok(await api.activate(owner, request.id));

    const stored = await newestMail(email);
    expect(stored.object).toBe("Your lease for flat 4");
    expect(stored.content).toContain("please sign <b>today</b> & thanks");
    expect(stored.html).toContain("please sign &lt;b&gt;today&lt;/b&gt; &amp; thanks");
    expect(stored.html).not.toContain("<b>today");

    const received = await deliverTo(smtp(), email);
    expect(received.subject).toBe("Your lease for flat 4");
    expect(received.text).toContain("please sign <b>today</b> & thanks");
    expect(received.text).toMatch(/\/sign\/\d+\.[\w-]+\.[\w-]+/);
  });

  it("without them the platform's wording is kept, and an empty string clears them", async () => {
    const email = emailOf("plain");
    const { owner, request } = await draftWithSigners({ signers: [email], body: { subject: "Something", message: "Words" } });
    const cleared = ok(await put(owner.token, request.id, { subject: "", message: null }));
    expect(cleared.subject).toBeNull();
    expect(cleared.message).toBeNull();
    ok(await api.activate(owner, request.id));
    const stored = await newestMail(email);
    expect(stored.object).toContain(request.name);
    expect(stored.content).not.toContain("writes:");
  });

  it("refuses control and bidirectional characters, overlong texts, another user and no token", async () => {
    const { owner, request } = await draftWithSigners({ signers: [emailOf("refuse")] });
    expectError(await put(owner.token, request.id, { subject: "Pay \u202Efdp.exe" }), 400);
    expectError(await put(owner.token, request.id, { subject: "two\nlines" }), 400);
    expectError(await put(owner.token, request.id, { message: "bell\u0007" }), 400);
    expectError(await put(owner.token, request.id, { message: "hidden \u2066text\u2069" }), 400);
    expectError(await put(owner.token, request.id, { subject: "x".repeat(201) }), 400);
    expectError(await put(owner.token, request.id, { message: "x".repeat(2001) }), 400);
    expectError(await api.create(owner, { name: "n", subject: "a\u202Db" }), 400);
    const other = await createTestUser();
    expectError(await put(other.token, request.id, { subject: "Mine now" }), 404);
    expect((await put(undefined, request.id, { subject: "Anyone" })).status).toBe(401);
    const db = await getDb();
    const [row] = await db.select().from(signatureRequests).where(eq(signatureRequests.id, request.id));
    expect(row.subject).toBeNull();
    // The owner's valid change still goes through.
    expect(ok(await put(owner.token, request.id, { message: "fine\n\tindented" })).message).toBe("fine\n\tindented");
  });
});

describe("a reminder with its own message", () => {
  it("is mailed to the awaited actor; the refusals hold", async () => {
    const email = emailOf("remind");
    const { owner, request, actors } = await draftWithSigners({ signers: [email] });
    ok(await api.activate(owner, request.id));
    const other = await createTestUser();
    expectError(await remindOne(other.token, request.id, actors[0].id, { message: "Hello" }), 404);
    expect((await remindOne(undefined, request.id, actors[0].id, { message: "Hello" })).status).toBe(401);
    expectError(await remindOne(owner.token, request.id, actors[0].id, { message: "a\u202Eb" }), 400);
    expectError(await remindAll(owner.token, request.id, { message: "x".repeat(2001) }), 400);

    expect(ok(await remindOne(owner.token, request.id, actors[0].id, { message: "Only two days left, <please>." })).reminded).toEqual([actors[0].id]);
    const stored = await newestMail(email);
    expect(stored.content).toContain("Only two days left, <please>.");
    expect(stored.html).toContain("Only two days left, &lt;please&gt;.");
    const received = await deliverTo(smtp(), email, (m) => m.text.includes("Only two days left"));
    expect(received.subject).toMatch(/Reminder/);

    // Without a body: the platform's wording only.
    expect(ok(await remindAll(owner.token, request.id)).reminded).toEqual([actors[0].id]);
    expect((await newestMail(email)).content).not.toContain("Only two days left");
  });
});

describe("completion copies", () => {
  it("every signer and follower receives the signed PDF and the sealed audit trail attached, and a copy link", async () => {
    const signers = [emailOf("s1"), emailOf("s2")];
    const follower = emailOf("fol");
    const { owner, request } = await draftWithSigners({ signers, extra: [{ type: "follower", infos: { email: follower, first_name: "Fol", last_name: "Lower" } }] });
    ok(await api.activate(owner, request.id));
    for (const email of signers) ok(await signAll(await tokenFromMail(email)));
    await waitDone(request.id);
    for (const to of [...signers, follower]) {
      const stored = await newestMail(to);
      expect(stored.object).toMatch(/is signed: your copy/);
      expect(stored.attachments!.map((a) => a.filename)).toEqual([expect.stringMatching(/ \(signed\)\.pdf$/), `${request.name} (audit trail).pdf`]);
      // The subject is MIME-encoded (its quotes are not ASCII): the copy is the mail with an attachment.
      const received = await deliverTo(smtp(), to, (m) => /Content-Disposition: attachment/i.test(m.raw));
      expect(received.raw).toMatch(/Content-Type: application\/pdf;?\s*name=/i);
      expect(received.raw).toMatch(/Content-Disposition: attachment/i);
      expect(stored.content).toMatch(/\/api\/sign\/\d+\.[\w-]+\.[\w-]+\/signed/);
      expect(received.raw).toMatch(/signed: your copy/);
      // Both attachments are sealed PDFs: the signed document, then the trail as it reads once done.
      const parts = received.raw.split(/Content-Disposition: attachment[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n/i).slice(1);
      const pdfs = parts.map((part) => Buffer.from(part.split(/\r?\n--/)[0].replace(/\s+/g, ""), "base64"));
      expect(pdfs).toHaveLength(2);
      for (const pdf of pdfs) {
        expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
        expect(pdf.toString("latin1")).toContain("/ByteRange");
      }
      const trail = await pdfText(pdfs[1]);
      // Columns wrap long addresses: compared without the layout's spaces and line breaks.
      for (const email of signers) expect(trail.replace(/\s+/g, "")).toContain(email);
      expect(trail).toMatch(/Status\s+done/);
      expect(trail).toContain("Request completed");
    }
  }, 120_000);

  it("over the mail size limit, a link only", async () => {
    const saved = process.env.MAIL_ATTACHMENT_MAX_BYTES;
    process.env.MAIL_ATTACHMENT_MAX_BYTES = "100";
    try {
      const email = emailOf("big");
      const { owner, request } = await draftWithSigners({ signers: [email] });
      ok(await api.activate(owner, request.id));
      ok(await signAll(await tokenFromMail(email)));
      await waitDone(request.id);
      const stored = await newestMail(email);
      expect(stored.object).toMatch(/your copy/);
      expect(stored.attachments).toBeNull();
      expect(stored.content).toMatch(/too large to be attached/);
      expect(stored.content).toMatch(/\/api\/sign\/\d+\.[\w-]+\.[\w-]+\/signed/);
    } finally {
      if (saved === undefined) delete process.env.MAIL_ATTACHMENT_MAX_BYTES;
      else process.env.MAIL_ATTACHMENT_MAX_BYTES = saved;
    }
  }, 120_000);
});

describe("the history names who acted", () => {
  it("an administrator who sends another's request is named, not the initiator; the platform's own invitations name nobody", async () => {
    const signers = [emailOf("h1"), emailOf("h2")];
    const { owner, request } = await draftWithSigners({ signers, ordered: 1 });
    const admin = await createTestUser({ role: 3, firstname: "Ada", lastname: "Admin" });
    ok(await api.activate(admin, request.id));
    ok(await signAll(await tokenFromMail(signers[0])));
    const list = ok(await call(activitiesRoute.GET, { token: owner.token, params: { signatureId: String(request.id) } }));
    const sent = list.objects.filter((a: { action: string }) => a.action === "signature_request.invitationSent");
    expect(sent).toHaveLength(2);
    expect(sent[0].by).toBe("Ada Admin");
    expect(sent[0].to_user.email).toBe(signers[0]);
    expect(sent[1].by).toBeNull();
    expect(sent[1].to_user.email).toBe(signers[1]);
    const signed = list.objects.find((a: { action: string }) => a.action === "signer.signed");
    expect(signed.by).toBe("Signer1 Test");
  }, 120_000);
});
