import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as templateRoute from "@/app/api/signature-template/[templateId]/route";
import * as useRoute from "@/app/api/signature-template/[templateId]/use/route";
import * as templatesRoute from "@/app/api/signature-templates/route";
import * as signaturesRoute from "@/app/api/signatures/route";
import { getDb } from "@/db";
import { signatureDocuments } from "@/db/schema";
import { signatureListResponse, signatureResponse } from "@/lib/contracts/signatures";
import { createTestUser, unique, type TestUser } from "../../helpers/factories";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { call, expectError } from "../../helpers/http";
import { uploadBytes } from "../../helpers/upload-factories";
import { api, draftWithSigners, makePdf, ok, PNG_DATA_URL, publicRead, publicSign, tokenFromMail } from "./signature-helpers";

beforeAll(openDatabase, OPEN_TIMEOUT);

const emailOf = (name: string) => `${unique(name)}@example.test`;
const save = (user: TestUser | null, body: Record<string, unknown>) => call(templatesRoute.POST, { method: "POST", token: user?.token, body });
const list = (user: TestUser | null) => call(templatesRoute.GET, { token: user?.token });
const read = (user: TestUser | null, id: number) => call(templateRoute.GET, { token: user?.token, params: { templateId: String(id) } });
const remove = (user: TestUser | null, id: number) => call(templateRoute.DELETE, { method: "DELETE", token: user?.token, params: { templateId: String(id) } });
const use = (user: TestUser | null, id: number, body: Record<string, unknown>) => call(useRoute.POST, { method: "POST", token: user?.token, params: { templateId: String(id) }, body });

/** A draft with two roles (signers) and fields of several types for each. */
async function draftForTemplate() {
  const draft = await draftWithSigners({ signers: [emailOf("role1"), emailOf("role2")] });
  const [first, second] = draft.actors;
  const add = (signer_id: number, body: Record<string, unknown>) => api.addField(draft.owner, draft.request.id, draft.doc.id, { signer_id, page: 1, ...body });
  ok(await add(first.id, { type: "date_signed", x: 300, y: 100 }), 201);
  ok(await add(first.id, { type: "dropdown", x: 300, y: 150, options: ["A", "B"] }), 201);
  ok(await add(second.id, { type: "initials", x: 400, y: 300 }), 201);
  ok(await add(second.id, { type: "number", x: 300, y: 400, read_only: 1, default_value: "42" }), 201);
  return draft;
}

describe("signature templates (issue 31)", { timeout: 120_000 }, () => {
  it("saves a draft as a template that keeps its document, roles and fields, even when the file changes", async () => {
    const draft = await draftForTemplate();
    const template = signatureResponse.parse(ok(await save(draft.owner, { signature_id: draft.request.id, name: "Lease template" }), 201));
    expect(template).toMatchObject({ name: "Lease template", is_template: 1, status: "draft" });
    expect(template.actors.map((a) => a.email)).toEqual(draft.actors.map((a) => a.email));
    expect(template.documents[0].fields.map((f) => f.type).sort()).toEqual(["date_signed", "dropdown", "initials", "number", "signature", "signature"]);
    // A new version of the file does not change the template's bytes.
    await uploadBytes(draft.owner, draft.folder.id, "Contract.pdf", await makePdf(3));
    const db = await getDb();
    const [original] = await db.select({ blobId: signatureDocuments.blobId }).from(signatureDocuments).where(eq(signatureDocuments.id, draft.doc.id));
    const [kept] = await db.select({ blobId: signatureDocuments.blobId, pages: signatureDocuments.pages }).from(signatureDocuments).where(eq(signatureDocuments.id, template.documents[0].id));
    expect(kept.blobId).toBe(original.blobId);
    expect(kept.pages).toHaveLength(1);

    const listed = signatureListResponse.parse(ok(await list(draft.owner)));
    expect(listed.objects.map((o) => o.id)).toContain(template.id);
    // Templates stay out of "my requests".
    const mine = ok(await call(signaturesRoute.GET, { token: draft.owner.token, query: { nb_objects: "100" } }));
    expect(mine.objects.map((o: { id: number }) => o.id)).not.toContain(template.id);
    expect(signatureResponse.parse(ok(await read(draft.owner, template.id))).id).toBe(template.id);
  });

  it("makes a new draft from a template, its roles given to new people, and that request is signed", async () => {
    const draft = await draftForTemplate();
    const template = ok(await save(draft.owner, { signature_id: draft.request.id }), 201);
    const [role1, role2] = template.actors;
    const colleague = await createTestUser();
    const newEmail = emailOf("newsigner");
    const made = signatureResponse.parse(
      ok(
        await use(draft.owner, template.id, {
          name: "Lease for Bob",
          roles: [
            { role: role1.id, infos: { email: newEmail, first_name: "Bob", last_name: "Tenant", locale: "de" } },
            { role: role2.id, id: colleague.id },
          ],
        }),
        201,
      ),
    );
    expect(made).toMatchObject({ name: "Lease for Bob", is_template: 0, status: "draft" });
    expect(made.actors.map((a) => a.email)).toEqual([newEmail, colleague.email.toLowerCase()]);
    expect(made.actors[1].user_id).toBe(colleague.id);
    const fields = made.documents[0].fields;
    const bob = made.actors[0].id;
    expect(fields.filter((f) => f.signer_id === bob).map((f) => f.type).sort()).toEqual(["date_signed", "dropdown", "signature"]);
    expect(fields.find((f) => f.type === "number")).toMatchObject({ read_only: true, default_value: "42", signer_id: made.actors[1].id });
    // The template itself is unchanged.
    expect(ok(await read(draft.owner, template.id)).actors[0].email).toBe(role1.email);

    ok(await api.activate(draft.owner, made.id));
    const token = await tokenFromMail(newEmail);
    const view = ok(await publicRead(token));
    const dropdown = view.documents[0].fields.find((f: { type: string }) => f.type === "dropdown");
    ok(await publicSign(token, { fields: [{ id: dropdown.id, value: "B" }], signature: { type: "drawn", image: PNG_DATA_URL } }));
  });

  it("refuses roles that are not the template's, and bad people", async () => {
    const draft = await draftForTemplate();
    const template = ok(await save(draft.owner, { signature_id: draft.request.id }), 201);
    expectError(await use(draft.owner, template.id, { roles: [{ role: draft.actors[0].id, infos: { email: emailOf("x"), first_name: "X", last_name: "Y" } }] }), 400, "invalid_request");
    expectError(await use(draft.owner, template.id, { roles: [{ role: template.actors[0].id, infos: { email: emailOf("x") } }] }), 400, "invalid_request");
    expectError(await use(draft.owner, template.id, { roles: [{ role: template.actors[0].id, infos: { email: emailOf("x"), first_name: "A\u202EB", last_name: "Y" } }] }), 400, "invalid_request");
    const twice = { role: template.actors[0].id, infos: { email: emailOf("x"), first_name: "X", last_name: "Y" } };
    expectError(await use(draft.owner, template.id, { roles: [twice, twice] }), 400, "invalid_request");
    // A draft is no template: using it is a 404.
    expectError(await use(draft.owner, draft.request.id, {}), 404, "template_not_found");
    // A template needs a document.
    const empty = ok(await api.create(draft.owner, { name: unique("Empty ") }), 201);
    expectError(await save(draft.owner, { signature_id: empty.id }), 409, "signature_state");
  });

  it("is owner-only: another user gets 404, no token 401", async () => {
    const draft = await draftForTemplate();
    const template = ok(await save(draft.owner, { signature_id: draft.request.id }), 201);
    const other = await createTestUser();
    expectError(await save(other, { signature_id: draft.request.id }), 404);
    expectError(await read(other, template.id), 404, "template_not_found");
    expectError(await use(other, template.id, {}), 404, "template_not_found");
    expectError(await remove(other, template.id), 404, "template_not_found");
    expect(ok(await list(other)).objects.map((o: { id: number }) => o.id)).not.toContain(template.id);
    for (const res of [await save(null, { signature_id: draft.request.id }), await list(null), await read(null, template.id), await use(null, template.id, {}), await remove(null, template.id)]) {
      expectError(res, 401);
    }
    // The owner deletes it; a request made from it keeps its content.
    const made = ok(await use(draft.owner, template.id, {}), 201);
    expect((await remove(draft.owner, template.id)).status).toBe(204);
    expectError(await read(draft.owner, template.id), 404, "template_not_found");
    expect(ok(await call((await import("@/app/api/signatures/[signatureId]/route")).GET, { token: draft.owner.token, params: { signatureId: String(made.id) } })).documents[0].fields.length).toBe(6);
  });
});
