import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { emails, workflowParticipants, workflowEvents, users } from "@/db/schema";
import { createTestUser, latestLog, unique } from "../../helpers/factories";
import { createFileScene, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { allRightsBut, grantRight, uploadText } from "../../helpers/files";
import { expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { withLocalSmtp } from "../../helpers/smtp";
import * as createRoute from "@/app/api/workflow/instance/route";
import { address, flux1, post, start, tokenFromMail } from "./workflow-helpers";

const smtp = withLocalSmtp(openDatabase, OPEN_TIMEOUT);

describe("POST /workflow/instance", () => {
  it("starts a flux 1 validation: each validator, internal and external, is mailed a link of their own", async () => {
    const { owner, version, file } = await createFileScene({ name: `${unique("contract_")}.txt` });
    const colleague = await createTestUser();
    const outsider = address();
    const body = flux1(version.id, { interne: [{ id: String(colleague.id), email: colleague.email }], externe: [{ email: outsider }] }, { comment: "Please check\nthe totals", send_copy: false });
    const instance = await start(owner, body);
    expect(instance).toMatchObject({
      object_type: "file",
      object_id: version.id,
      flux: { id: 1, name: "workflow.flux.1.name", description: "workflow.flux.1.description" },
      state: { id: "waiting_validation", name: "workflow.state.waiting_validation" },
      owner_id: owner.id,
      is_closed: false,
      transitions_available: {},
      data_objects: [{ type: "file", id: version.id }],
      comment: "Please check\nthe totals",
      documents: [{ id: version.id, name: file.name, size: 5 }],
    });
    expect(instance.validators!.map((v) => [v.type, v.email, v.user_id, v.decision])).toEqual([
      ["interne", colleague.email, colleague.id, null],
      ["externe", outsider, null, null],
    ]);
    expect(instance.properties[0]).toMatchObject({ objects: [{ type: "file", id: version.id }], send_copy: false, comment: "Please check\nthe totals" });
    expect((await latestLog("workflow", instance.id))?.type).toBe("ADMLLOG_INSERT");

    const tokens = new Set<string>();
    for (const to of [colleague.email, outsider]) {
      const { token, mail } = await tokenFromMail(smtp(), to);
      expect(mail.text).toContain(`"${file.name}"`);
      expect(mail.text).toContain("Please check");
      tokens.add(token);
    }
    expect(tokens.size).toBe(2);
    // Only a hash of each link's secret is stored; the outbox hides the bodies that carry them.
    const db = await getDb();
    const stored = await db.select().from(workflowParticipants).where(eq(workflowParticipants.instanceId, instance.id));
    for (const token of tokens) {
      const secret = token.split(".")[1];
      expect(stored.some((p) => p.tokenHash.includes(secret))).toBe(false);
      expect(stored.map((p) => p.tokenHash)).not.toContain(secret);
    }
    const outbox = await db.select().from(emails).where(eq(emails.to, outsider));
    expect(outbox[0].sensitive).toBe(true);
    const events = await db.select().from(workflowEvents).where(eq(workflowEvents.instanceId, instance.id));
    expect(events.map((e) => [e.action, e.ip, e.userAgent])).toEqual([["created", "unknown", null]]);
  });

  it("finds an internal validator by address alone and asks the same person once", async () => {
    const { owner, version } = await createFileScene();
    const colleague = await createTestUser();
    const instance = await start(owner, flux1(version.id, { interne: [{ email: colleague.email.toUpperCase() }, { id: colleague.id }], externe: [{ email: colleague.email }] }));
    expect(instance.validators!.map((v) => [v.type, v.user_id])).toEqual([["interne", colleague.id]]);
  });

  it("starts a flux 4 validation of several documents, and accepts one without any (the contract does not require objects there)", async () => {
    const { owner, folder, version } = await createFileScene();
    const second = await uploadText(owner, folder.id, `${unique("annex_")}.txt`, "annex");
    const instance = await start(owner, {
      flux: { id: "4" },
      properties: { objects: [{ type: "file", id: version.id }, { type: "file", id: String(second.version.id) }, { type: "file", id: version.id }], validation: { externe: [{ email: address() }] } },
    });
    expect(instance.flux.id).toBe(4);
    expect(instance.data_objects).toEqual([{ type: "file", id: version.id }, { type: "file", id: second.version.id }]);
    const empty = await start(owner, { flux: { id: 4 }, properties: { validation: { externe: [{ email: address() }] } } });
    expect(empty).toMatchObject({ object_type: null, object_id: null, data_objects: [], documents: [] });
  });

  it("refuses bad input with 400 and the field named", async () => {
    const { owner, folder, version } = await createFileScene();
    const second = await uploadText(owner, folder.id, `${unique("b_")}.txt`, "b");
    const bad: [unknown, string][] = [
      [{ flux: { id: 9 }, properties: { objects: [{ type: "file", id: version.id }] } }, "flux.id"],
      [{ flux: { id: 1 }, properties: { objects: [{ type: "file", id: version.id }] } }, "properties.validation"],
      [{ flux: { id: 1 }, properties: { validation: { externe: [{ email: address() }] } } }, "properties.objects"],
      [flux1(version.id, { externe: [{ email: "not an address" }] }), "properties.validation.externe.0.email"],
      [{ flux: { id: 1 }, properties: { objects: [{ type: "file", id: version.id }, { type: "file", id: second.version.id }], validation: { externe: [{ email: address() }] } } }, "properties.objects"],
      [flux1(version.id, { externe: [{ email: address() }] }, { comment: "evil \u202e txt.exe" }), "properties.comment"],
      [flux1(version.id, { interne: [{ name: "nobody" }] }), "properties.validation.interne.0"],
      [{ flux: { id: 1 }, properties: { objects: [{ type: "folder", id: version.id }], validation: { externe: [{ email: address() }] } } }, "properties.objects.0.type"],
      [{ flux: { id: 5 }, properties: { objects: [{ type: "file", id: version.id }], signatures: [{ email: address() }], signature_fields: [{ x: 10, y: 10, page: 1, signerIndex: 1, document: 0 }] } }, "properties.signature_fields.0.signerIndex"],
      [{ flux: { id: 5 }, properties: { objects: [{ type: "file", id: version.id }], signatures: [{ email: address() }], signature_fields: [{ x: 10, y: 10, page: 1, signerIndex: 0, document: 0 }] } }, "properties.signatures.0.firstname"],
      [{ flux: { id: 2 }, properties: { objects: [{ type: "file", id: version.id }] } }, "properties.signatures"],
    ];
    for (const [body, path] of bad) {
      const res = await post(owner.token, body);
      expectError(res, 400, "invalid_request");
      expect(res.body.details.map((d: { path: string }) => d.path), JSON.stringify(body)).toContain(path);
    }
    const unknownUser = await post(owner.token, flux1(version.id, { interne: [{ id: 2_000_000_000 }] }));
    expectError(unknownUser, 400, "invalid_request");
    expect(unknownUser.body.details[0].path).toBe("properties.validation.interne.0");
    const strangerAddress = await post(owner.token, flux1(version.id, { interne: [{ email: address() }] }));
    expectError(strangerAddress, 400, "invalid_request");
    const colleague = await createTestUser();
    const mismatch = await post(owner.token, flux1(version.id, { interne: [{ id: colleague.id, email: address() }] }));
    expectError(mismatch, 400, "invalid_request");
    const db = await getDb();
    await db.update(users).set({ active: false }).where(eq(users.id, colleague.id));
    expectError(await post(owner.token, flux1(version.id, { interne: [{ id: colleague.id }] })), 400, "invalid_request");
  });

  it("refuses files the caller may not read or download, and sharing outside without the share right", async () => {
    const { owner, other, folder, version } = await createFileScene();
    expectError(await post(other.token, flux1(version.id, { externe: [{ email: address() }] })), 403);
    expectError(await post(owner.token, flux1(2_000_000_000, { externe: [{ email: address() }] })), 404);

    await grantRight(folder.id, other.id, allRightsBut("download"));
    const noDownload = await post(other.token, flux1(version.id, { interne: [{ id: owner.id }] }));
    expectError(noDownload, 403, "forbidden");

    await grantRight(folder.id, other.id, allRightsBut("share"));
    // An internal validation needs no share right; outside addresses and copy links do.
    await start(other, flux1(version.id, { interne: [{ id: owner.id }] }));
    expectError(await post(other.token, flux1(version.id, { externe: [{ email: address() }] })), 403, "forbidden");
    expectError(await post(other.token, flux1(version.id, { interne: [{ id: owner.id }] }, { send_copy: true })), 403, "forbidden");

    // Nothing half-made stays behind a refusal: no mail went to the outside address.
    const db = await getDb();
    const outsider = address();
    expectError(await post(other.token, flux1(version.id, { externe: [{ email: outsider }] })), 403);
    expect(await db.select().from(emails).where(and(eq(emails.to, outsider)))).toEqual([]);
  });

  it("needs a token", async () => {
    const { version } = await createFileScene();
    await expectAuthRequired(createRoute.POST, { method: "POST", body: flux1(version.id, { externe: [{ email: address() }] }) });
  });
});
