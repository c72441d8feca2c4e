import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import * as fieldRoute from "@/app/api/signatures/[signatureId]/documents/[documentId]/fields/[fieldId]/route";
import * as readRoute from "@/app/api/signatures/[signatureId]/route";
import * as signedRoute from "@/app/api/signatures/[signatureId]/signed/route";
import { getDb } from "@/db";
import { signatureResponse } from "@/lib/contracts/signatures";
import { signingCaPem } from "@/lib/server/signatures/seal/signing-credentials";
import { createTestUser, unique } from "../../helpers/factories";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { call, expectError } from "../../helpers/http";
import { pdfText, renderPage, verifyPdf } from "../../helpers/pdfsig";
import { api, draftWithSigners, ok, PNG_DATA_URL, publicRead, publicSign, tokenFromMail, waitDone } from "./signature-helpers";

beforeAll(openDatabase, OPEN_TIMEOUT);

const emailOf = (name: string) => `${unique(name)}@example.test`;

/** A draft whose one signer (locale fr) has one field of every type besides the signature. */
async function everyType() {
  const draft = await draftWithSigners({ signers: [emailOf("types")], body: {} });
  const { owner, request, doc } = draft;
  const signerId = draft.actors[0].id;
  const add = async (body: Record<string, unknown>) => ok(await api.addField(owner, request.id, doc.id, { signer_id: signerId, page: 1, ...body }), 201);
  const fields = {
    initials: await add({ type: "initials", x: 400, y: 100 }),
    name: await add({ type: "full_name", x: 50, y: 300, optional: 1, default_value: "ignored" }),
    email: await add({ type: "email", x: 50, y: 330, width: 250 }),
    date: await add({ type: "date_signed", x: 50, y: 360 }),
    text: await add({ type: "text", x: 50, y: 390, max_length: 20, question: "City", font_size: 9 }),
    number: await add({ type: "number", x: 50, y: 420, question: "Amount" }),
    radio: await add({ type: "radio", x: 50, y: 450, options: ["Monthly", "Yearly"], question: "Plan" }),
    dropdown: await add({ type: "dropdown", x: 50, y: 520, options: ["Red", "Blue"], default_value: "Blue" }),
    fixed: await add({ type: "text", x: 50, y: 550, read_only: 1, default_value: "Ref 2026-42" }),
    checkbox: await add({ type: "checkbox", x: 50, y: 580, optional: 1 }),
  };
  return { ...draft, fields };
}

// Each test places a dozen fields through the API: slow on PGlite when the machine is busy.
describe("field types (issue 31)", { timeout: 120_000 }, () => {
  it("stores each type's settings: automatic fields are required and read-only, choices keep their options", async () => {
    const { fields } = await everyType();
    expect(fields.name).toMatchObject({ type: "full_name", optional: false, read_only: true });
    expect(fields.date).toMatchObject({ type: "date_signed", read_only: true });
    expect(fields.radio).toMatchObject({ type: "radio", options: ["Monthly", "Yearly"], question: "Plan" });
    expect(fields.dropdown).toMatchObject({ default_value: "Blue" });
    expect(fields.fixed).toMatchObject({ read_only: true, default_value: "Ref 2026-42" });
    expect(fields.text).toMatchObject({ font_size: 9, max_length: 20 });
    expect(fields.initials).toMatchObject({ width: 80, height: 40, optional: false });
  });

  it("refuses settings that do not fit the type", async () => {
    const { owner, request, doc, actors } = await draftWithSigners({ signers: [emailOf("bad")] });
    const add = (body: Record<string, unknown>) => api.addField(owner, request.id, doc.id, { signer_id: actors[0].id, page: 1, x: 50, y: 300, ...body });
    expectError(await add({ type: "radio" }), 400, "invalid_request");
    expectError(await add({ type: "dropdown", options: ["A", "A"] }), 400, "invalid_request");
    expectError(await add({ type: "dropdown", options: ["A", "B"], default_value: "C" }), 400, "invalid_request");
    expectError(await add({ type: "number", default_value: "twelve" }), 400, "invalid_request");
    expectError(await add({ type: "text", read_only: 1 }), 400, "invalid_request");
    expectError(await add({ type: "signature", read_only: 1 }), 400, "invalid_request");
    expectError(await add({ type: "radio", options: ["A\u202EB"] }), 400, "invalid_request");
    expectError(await add({ type: "text", default_value: "a\u0000b" }), 400, "invalid_request");
    expectError(await add({ type: "dropdown", options: Array.from({ length: 51 }, (_, i) => `o${i}`) }), 400, "invalid_request");
    expectError(await add({ type: "text", font_size: 500 }), 400, "invalid_request");
    // A change that breaks the rules is refused too.
    const field = ok(await add({ type: "dropdown", options: ["A", "B"] }), 201);
    const put = (body: Record<string, unknown>, token: string | null = owner.token) =>
      call(fieldRoute.PUT, { method: "PUT", token: token ?? undefined, params: { signatureId: String(request.id), documentId: String(doc.id), fieldId: String(field.id) }, body });
    expectError(await put({ default_value: "Z" }), 400, "invalid_request");
    expect(ok(await put({ options: ["A", "B", "C"], default_value: "C" })).options).toEqual(["A", "B", "C"]);
    // Another user, and no token.
    const other = await createTestUser();
    expectError(await api.addField(other, request.id, doc.id, { type: "number", signer_id: actors[0].id, page: 1, x: 1, y: 1 }), 404);
    expectError(await put({ default_value: "A" }, other.token), 404);
    expectError(await put({ default_value: "A" }, null), 401);
  });

  it("validates each value at signing, fills the automatic ones, and seals a PDF pdfsig validates with captions", async () => {
    const { owner, request, fields, actors } = await everyType();
    ok(await api.activate(owner, request.id));
    const token = await tokenFromMail(actors[0].email);
    const view = ok(await publicRead(token));
    expect(view.documents[0].fields.find((f: { id: number }) => f.id === fields.radio.id).options).toEqual(["Monthly", "Yearly"]);
    const good: Record<number, unknown> = { [fields.text.id]: "Lyon", [fields.number.id]: "1 200", [fields.radio.id]: "Yearly", [fields.dropdown.id]: "Red" };
    const sign = (over: Record<number, unknown>) =>
      publicSign(token, { fields: Object.entries({ ...good, ...over }).map(([id, value]) => ({ id: Number(id), value })), signature: { type: "drawn", image: PNG_DATA_URL } });
    expectError(await sign({}), 400, "invalid_request"); // "1 200" is no number
    good[fields.number.id] = "1200,5";
    expectError(await sign({ [fields.radio.id]: "Weekly" }), 400, "invalid_request");
    expectError(await sign({ [fields.dropdown.id]: "Green" }), 400, "invalid_request");
    expectError(await sign({ [fields.text.id]: "" }), 400, "invalid_request");
    expectError(await sign({ [fields.text.id]: "x".repeat(21) }), 400, "invalid_request");
    expectError(await sign({ [fields.text.id]: "Ly\u0000on" }), 400, "invalid_request");
    expectError(await sign({ [fields.text.id]: "Ly\u202Eon" }), 400, "invalid_request");
    expectError(await sign({ [fields.text.id]: "Ly\u0007on" }), 400, "invalid_request");
    expectError(await sign({ [fields.fixed.id]: "Ref 1" }), 400, "invalid_request");
    expectError(await sign({ [fields.email.id]: "someone@else.test" }), 400, "invalid_request");
    const res = await sign({ [fields.fixed.id]: "Ref 2026-42" });
    expect(res.status, res.text).toBe(200);

    await waitDone(request.id);
    const full = signatureResponse.parse(ok(await call(readRoute.GET, { token: owner.token, params: { signatureId: String(request.id) } })));
    const value = (id: number) => full.documents[0].fields.find((f) => f.id === id)!.value;
    expect(value(fields.name.id)).toBe("Signer1 Test");
    expect(value(fields.email.id)).toBe(actors[0].email);
    expect(value(fields.date.id)).toBe(new Intl.DateTimeFormat("en", { dateStyle: "long", timeZone: "UTC" }).format(new Date()));
    expect(value(fields.number.id)).toBe("1200.5");
    expect(value(fields.radio.id)).toBe("Yearly");
    expect(value(fields.fixed.id)).toBe("Ref 2026-42");
    expect(value(fields.initials.id)).toBe("ST");
    expect(value(fields.checkbox.id)).toBe(false);

    const bytes = new Uint8Array(await (await signedRoute.GET(new Request("http://coffre.test/x", { headers: { authorization: `Bearer ${owner.token}` } }), { params: Promise.resolve({ signatureId: String(request.id) }) })).arrayBuffer());
    const report = await verifyPdf(bytes, { trustCaPem: await signingCaPem(await getDb()) });
    expect(report).toContain("Signature is Valid.");
    expect(report).toContain("Total document signed");
    if (process.env.SCREENSHOT_DIR) {
      await mkdir(process.env.SCREENSHOT_DIR, { recursive: true });
      const pdf = path.join(process.env.SCREENSHOT_DIR, "stamped-fields.pdf");
      await writeFile(pdf, bytes);
      await promisify(execFile)("pdftoppm", ["-f", "1", "-l", "1", "-r", "100", "-png", "-singlefile", pdf, path.join(process.env.SCREENSHOT_DIR, "stamped-fields")]);
    }
    const text = await pdfText(bytes);
    for (const word of ["Signer1 Test", actors[0].email, "1200.5", "Yearly", "Red", "Ref 2026-42", "Lyon"]) expect(text).toContain(word);
    // The captions under the signature (one line) and the initials (narrow: name, then date): the signer's name and the date, in UTC.
    expect(text).toMatch(/Signer1 Test · .+ UTC/);
    expect(text.match(/\d{4}, [^·]+? UTC/g)?.length).toBe(2);
    // Something is drawn in the signature's box above its caption.
    const page = await renderPage(bytes, 1);
    expect(page.darkness({ x: 50, y: 112, width: 200, height: 55 })).toBeGreaterThan(0);
  });

  it("formats the date signed in the signer's locale", async () => {
    const draft = await draftWithSigners({ signers: [] });
    const actor = ok(await api.addActor(draft.owner, draft.request.id, { type: "signer", infos: { email: emailOf("fr"), first_name: "Zoé", last_name: "Durand", locale: "fr" } }), 201);
    ok(await api.addField(draft.owner, draft.request.id, draft.doc.id, { type: "signature", signer_id: actor.id, page: 1, x: 50, y: 100 }), 201);
    const date = ok(await api.addField(draft.owner, draft.request.id, draft.doc.id, { type: "date_signed", signer_id: actor.id, page: 1, x: 50, y: 300 }), 201);
    ok(await api.activate(draft.owner, draft.request.id));
    const token = await tokenFromMail(actor.email);
    ok(await publicSign(token, { signature: { type: "typed", text: "Zoé Durand" } }));
    const full = ok(await call(readRoute.GET, { token: draft.owner.token, params: { signatureId: String(draft.request.id) } }));
    const expected = new Intl.DateTimeFormat("fr", { dateStyle: "long", timeZone: "UTC" }).format(new Date());
    expect(full.documents[0].fields.find((f: { id: number }) => f.id === date.id).value).toBe(expected);
  });
});
