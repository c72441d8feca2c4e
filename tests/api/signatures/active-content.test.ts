import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { PDFArray, PDFDocument, PDFName, PDFString, StandardFonts } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import * as signedRoute from "@/app/api/signatures/[signatureId]/signed/route";
import { getDb } from "@/db";
import { signatureDocuments, signatureRequests } from "@/db/schema";
import { findActiveContent } from "@/lib/server/signatures/seal/active-content";
import { stampFields } from "@/lib/server/signatures/seal/stamp-fields";
import { signingCaPem } from "@/lib/server/signatures/seal/signing-credentials";
import { getBlobStore } from "@/lib/storage";
import { unique } from "../../helpers/factories";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { expectError } from "../../helpers/http";
import { runJobsUntil } from "../../helpers/jobs";
import { verifyPdf } from "../../helpers/pdfsig";
import { uploadBytes } from "../../helpers/upload-factories";
import { api, draftWithSigners, ok, pdfScene, signAll, tokenFromMail } from "./signature-helpers";

// Issue 25, finding 17: signed PDFs kept OpenAction, JavaScript and Launch actions.
beforeAll(openDatabase, OPEN_TIMEOUT);

type Active = "openAction" | "launchLink" | "pageAA" | "annotAA" | "namesJs";

/** A one-page PDF carrying the given active content, and a harmless link to a web page. */
async function activePdf(kinds: Active[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595.28, 841.89]);
  page.drawText("Contract with a surprise", { x: 50, y: 780, size: 18, font: await doc.embedFont(StandardFonts.Helvetica) });
  const { context, catalog } = doc;
  const js = (code: string) => context.obj({ S: "JavaScript", JS: PDFString.of(code) });
  const annots: ReturnType<typeof context.register>[] = [];
  annots.push(context.register(context.obj({ Type: "Annot", Subtype: "Link", Rect: [50, 700, 200, 720], A: { S: "URI", URI: PDFString.of("https://example.org/") } })));
  if (kinds.includes("openAction")) catalog.set(PDFName.of("OpenAction"), context.register(js("app.alert('opened')")));
  if (kinds.includes("launchLink")) annots.push(context.register(context.obj({ Type: "Annot", Subtype: "Link", Rect: [50, 650, 200, 670], A: { S: "Launch", F: PDFString.of("calc.exe") } })));
  if (kinds.includes("pageAA")) page.node.set(PDFName.of("AA"), context.obj({ O: js("app.alert('page')") }));
  if (kinds.includes("annotAA")) annots.push(context.register(context.obj({ Type: "Annot", Subtype: "Widget", Rect: [50, 600, 200, 620], AA: { E: js("app.alert('enter')") } })));
  if (kinds.includes("namesJs")) {
    const tree = context.obj({ Names: [PDFString.of("start"), context.register(js("app.alert('names')"))] });
    catalog.set(PDFName.of("Names"), context.obj({ JavaScript: context.register(tree) }));
  }
  page.node.set(PDFName.of("Annots"), context.obj(annots));
  return doc.save();
}

const SCRIPTS = /app\.alert|calc\.exe|\/JavaScript|\/Launch/;

/** Every object of a PDF as text, object streams unpacked (the raw bytes hide what they compress). */
async function objectsText(bytes: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  return doc.context
    .enumerateIndirectObjects()
    .map(([, object]) => object.toString())
    .join("\n");
}

async function addAsDocument(bytes: Uint8Array) {
  const { owner, folder } = await pdfScene();
  const { version } = await uploadBytes(owner, folder.id, `${unique("active_")}.pdf`, bytes);
  const request = ok(await api.create(owner, { name: unique("Active ") }), 201);
  return api.addDocument(owner, request.id, version.id);
}

describe("active content in a PDF to sign", () => {
  it.each<[string, Active[], RegExp]>([
    ["an /OpenAction running JavaScript", ["openAction"], /\/OpenAction \/JavaScript/],
    ["a link launching a program", ["launchLink"], /\/Launch/],
    ["automatic actions of a page", ["pageAA"], /\/AA\) of a page/],
    ["automatic actions of a form field", ["annotAA"], /\/AA\) of an annotation or form field/],
    ["document-level JavaScript", ["namesJs"], /\/Names \/JavaScript/],
  ])("refuses %s with 422 pdf_active_content, naming it", async (_, kinds, named) => {
    const res = await addAsDocument(await activePdf(kinds));
    expectError(res, 422, "pdf_active_content");
    expect(res.body.details.active.join("\n")).toMatch(named);
  });

  it("takes a PDF whose only actions are a link to a web page and an opening at a page", async () => {
    const bytes = await activePdf([]);
    const doc = await PDFDocument.load(bytes);
    doc.catalog.set(PDFName.of("OpenAction"), doc.context.obj([doc.getPages()[0].ref, PDFName.of("Fit")]));
    expect(findActiveContent(doc)).toEqual([]);
    ok(await addAsDocument(await doc.save()), 201);
  });

  it("the scripted test documents carry what they should (a check of the check)", async () => {
    expect(await objectsText(await activePdf(["openAction", "launchLink", "namesJs"]))).toMatch(SCRIPTS);
  });

  it("stamping removes every kind, the scripts with them, and keeps the web link", async () => {
    const stamped = await stampFields(await activePdf(["openAction", "launchLink", "pageAA", "annotAA", "namesJs"]), []);
    const text = await objectsText(stamped);
    expect(text).not.toMatch(SCRIPTS);
    expect(text).toContain("https://example.org/");
    const doc = await PDFDocument.load(stamped);
    expect(findActiveContent(doc)).toEqual([]);
    // The annotations stay (their appearance is part of the page), without their actions.
    expect(doc.getPages()[0].node.lookup(PDFName.of("Annots"), PDFArray).size()).toBe(3);
  });

  it("a document that came in before the refusal is sealed without its scripts, and the seal holds", async () => {
    const email = `${unique("active")}@example.test`;
    const { owner, request, doc } = await draftWithSigners({ signers: [email] });
    // As if added before the check: the request's pinned bytes are replaced by a scripted PDF.
    const blob = await getBlobStore().put(Readable.from([Buffer.from(await activePdf(["openAction", "launchLink", "pageAA"]))]));
    const db = await getDb();
    await db.update(signatureDocuments).set({ blobId: blob.id }).where(eq(signatureDocuments.id, doc.id));
    ok(await api.activate(owner, request.id));
    ok(await signAll(await tokenFromMail(email)));
    await runJobsUntil(["signatures.complete"], async () => {
      const [row] = await db.select().from(signatureRequests).where(eq(signatureRequests.id, request.id));
      return row.status === "done" ? row : undefined;
    }, 60_000);
    const res = await signedRoute.GET(new Request("http://coffre.test/x", { headers: { authorization: `Bearer ${owner.token}` } }), { params: Promise.resolve({ signatureId: String(request.id) }) });
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(await objectsText(bytes)).not.toMatch(SCRIPTS);
    expect(await verifyPdf(bytes, { trustCaPem: await signingCaPem(db) })).toContain("Signature is Valid.");
  }, 90_000);
});

