import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as textRoute from "@/app/api/file/[fileId]/text/route";
import { sql } from "drizzle-orm";
import { getDb, rows } from "@/db";
import { getBlobStore } from "@/lib/server/blobs/stores";
import { runDueJobs } from "@/lib/server/jobs/worker";
import { isInstalled } from "@/lib/server/previews/converter";
import { downloadById } from "@/lib/server/downloads/serve-download";
import { ocrSlice } from "@/lib/server/texts/ocr-job";
import { extractText } from "@/lib/server/texts/extract-text";
import { createTestUser } from "../../helpers/factories";
import { allRightsBut, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { serveNode } from "../../helpers/node-server";
import { expectAuthRequired } from "../../helpers/security";
import { createSharedScene, getFolder, names, OPEN_TIMEOUT, openDatabase } from "../folders/fixtures";
import { makeDocx } from "../previews/converter-fixtures";
import { uploadBytes } from "../previews/fixtures";
import { makePptx, makeXlsx } from "./office-fixtures";
import { extractFully, makeMixedPdf, renderTextPng, textRow, withEnv } from "./text-fixtures";

const hasOffice = isInstalled("LibreOffice") && isInstalled("bubblewrap") && isInstalled("pdftotext");
const hasOcr = ["tesseract", "bubblewrap", "pdftoppm", "pdfseparate", "pdfunite"].every((tool) => isInstalled(tool as Parameters<typeof isInstalled>[0]));
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

// The searchable PDF is a download: served on Node's own response, tested over real HTTP.
let server: Awaited<ReturnType<typeof serveNode>>;
beforeAll(async () => {
  await openDatabase();
  server = await serveNode(downloadById);
}, OPEN_TIMEOUT);
afterAll(async () => {
  await server.close();
});

const search = (token: string, id: number, words: string) => getFolder(token, id, { recursive: 1, search_label: words, in_content: 1 });
const textState = (token: string | null, fileId: number) => call(textRoute.GET, { path: `/api/file/${fileId}/text`, params: { fileId: String(fileId) }, token });

async function download(fileId: number, token: string | null, query = "?searchable=1") {
  const res = await fetch(`${server.url}/api/file/${fileId}/download${query}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** The text pdftotext reads from a PDF (the test's own check of a text layer), pages separated by form feeds. */
function pdfToText(pdf: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "coffre-pdftotext-"));
  try {
    fs.writeFileSync(path.join(dir, "in.pdf"), pdf);
    return execFileSync("pdftotext", ["-enc", "UTF-8", path.join(dir, "in.pdf"), "-"], { encoding: "utf8" });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(!hasOffice)("office documents' text (LibreOffice)", () => {
  it("finds a word only present in a docx, in a cell of a spreadsheet's second sheet, on a presentation's second slide", { timeout: 240_000 }, async () => {
    const { owner, work } = await createSharedScene();
    const { version: docx } = await uploadBytes(owner, work.id, "report.docx", await makeDocx("The quarterly figures mention narwhal among others"), DOCX);
    const { version: xlsx } = await uploadBytes(owner, work.id, "budget.xlsx", await makeXlsx([[["Item", "Cost"], ["Paper", "12"]], [["Notes", "pelican"], ["Total", "99"]]]));
    const { version: pptx } = await uploadBytes(owner, work.id, "deck.pptx", await makePptx(["Welcome everyone", "Our mascot is a wombat"]));
    await uploadText(owner, work.id, "other.txt", "nothing to see here");
    for (const v of [docx, xlsx, pptx]) await extractFully(v.id);
    for (const v of [docx, xlsx, pptx]) expect(await textRow(v.id), String(v.id)).toMatchObject({ state: "available", toolMissing: null });

    for (const [word, name] of [["narwhal", "report.docx"], ["pelican", "budget.xlsx"], ["wombat", "deck.pptx"]]) {
      const found = await search(owner.token, work.id, word);
      expect(found.status, found.text).toBe(200);
      expect(names(found.body.files), word).toEqual([name]);
    }
    // Sheets and slides are the text's pages: the word is on the second.
    const sheets = (await textRow(xlsx.id)).content.split("\f");
    expect(sheets).toHaveLength(2);
    expect(sheets[1]).toContain("pelican");
    expect(sheets[0]).not.toContain("pelican");
    const slides = (await textRow(pptx.id)).content.split("\f");
    expect(slides).toHaveLength(2);
    expect(slides[1]).toContain("wombat");
    const state = await textState(owner.token, pptx.id);
    expect(state.status, state.text).toBe(200);
    // Too few words to tell a language: the owner's (auto, so 'simple').
    expect(state.body).toEqual({ state: "available", language: "simple", tool_missing: null, pages: 2, pages_done: 0, searchable_pdf: false });
  });

  it("indexes a French document in French: an inflected form finds it", { timeout: 120_000 }, async () => {
    const { owner, work } = await createSharedScene();
    const text = "Le contrat est signé par les parties pour une durée de deux ans et il sera renouvelé avec les mêmes conditions.";
    const { version } = await uploadBytes(owner, work.id, "accord.docx", await makeDocx(text), DOCX);
    const { version: note } = await uploadText(owner, work.id, "note.txt", "The contract has been signed by the parties and it is now in force for the year.");
    await extractFully(version.id);
    await extractFully(note.id);
    expect((await textRow(version.id)).language).toBe("french");
    expect(names((await search(owner.token, work.id, "contrats")).body.files)).toEqual(["accord.docx"]);
    expect(names((await search(owner.token, work.id, "signés")).body.files)).toEqual(["accord.docx"]);
    // An English text is still found by its own words, in English.
    expect(names((await search(owner.token, work.id, "contracts")).body.files)).toEqual(["note.txt"]);
  });

  it("names LibreOffice when it is missing, and the other formats still get their text", { timeout: 60_000 }, async () => {
    const { owner, work } = await createSharedScene();
    const { version: docx } = await uploadBytes(owner, work.id, "a.docx", await makeDocx("hidden word"), DOCX);
    const { version: txt } = await uploadText(owner, work.id, "b.txt", "plain heron");
    await withEnv({ PREVIEW_SOFFICE: "/nonexistent/soffice" }, async () => {
      const db = await getDb();
      await extractText(db, docx.id);
      await extractText(db, txt.id);
    });
    expect(await textRow(docx.id)).toMatchObject({ state: "unavailable", toolMissing: "libreoffice", content: "" });
    expect((await textState(owner.token, docx.id)).body).toMatchObject({ state: "unavailable", tool_missing: "libreoffice" });
    expect(names((await search(owner.token, work.id, "heron")).body.files)).toEqual(["b.txt"]);
  });
});

describe.skipIf(!hasOcr)("OCR (Tesseract)", () => {
  it("reads a PNG of rendered text and an image-only PDF page; the PDF's word is on its page; searchable PDFs have a text layer", { timeout: 300_000 }, async () => {
    const { owner, work } = await createSharedScene();
    const { version: png } = await uploadBytes(owner, work.id, "receipt.png", renderTextPng(["Receipt for one pineapple", "Thank you"]));
    const pdfBytes = await makeMixedPdf([{ text: "This first page has a real text layer about budgets" }, { png: renderTextPng(["Signed contract for the lighthouse"]) }]);
    const { version: pdf } = await uploadBytes(owner, work.id, "scan.pdf", pdfBytes, "application/pdf");
    await extractText(await getDb(), png.id);
    expect((await textState(owner.token, png.id)).body).toMatchObject({ state: "preparing", searchable_pdf: false });
    // Not ready yet: 423, as a preview being prepared.
    expect((await download(png.id, owner.token)).status).toBe(423);
    await extractFully(png.id);
    await extractFully(pdf.id);

    expect(names((await search(owner.token, work.id, "pineapple")).body.files)).toEqual(["receipt.png"]);
    const lighthouse = await search(owner.token, work.id, "lighthouse");
    expect(names(lighthouse.body.files)).toEqual(["scan.pdf"]);
    // The result carries a snippet with the word marked and the page of the scan it is on.
    const match = lighthouse.body.files[0].content_match as { snippet: string; highlights: [number, number][]; page: number };
    expect(match.page).toBe(2);
    expect(match.highlights.map(([a, b]) => match.snippet.slice(a, b).toLowerCase())).toEqual(["lighthouse"]);
    const receipt = (await search(owner.token, work.id, "pineapple")).body.files[0].content_match as { page: number; snippet: string };
    expect(receipt.page).toBe(1);
    expect(receipt.snippet.toLowerCase()).toContain("pineapple");
    const pages = (await textRow(pdf.id)).content.split("\f");
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain("budgets");
    expect(pages[1].toLowerCase()).toContain("lighthouse");
    expect((await textState(owner.token, pdf.id)).body).toEqual({ state: "available", language: "english", tool_missing: null, pages: 2, pages_done: 0, searchable_pdf: true });

    // The searchable PDFs: the scan with a text layer pdftotext reads; the original is untouched.
    const fromPng = await download(png.id, owner.token);
    expect(fromPng.status, fromPng.body.toString().slice(0, 200)).toBe(200);
    expect(fromPng.headers.get("content-type")).toBe("application/pdf");
    expect(fromPng.headers.get("content-disposition")).toContain("receipt.pdf");
    expect(Number(fromPng.headers.get("content-length"))).toBe(fromPng.body.length);
    expect(pdfToText(fromPng.body).toLowerCase()).toContain("pineapple");
    const fromPdf = await download(pdf.id, owner.token);
    expect(fromPdf.status).toBe(200);
    const layers = pdfToText(fromPdf.body).split("\f");
    expect(layers[0]).toContain("budgets");
    expect(layers[1].toLowerCase()).toContain("lighthouse");
    const original = await download(pdf.id, owner.token, "");
    expect(original.body.equals(pdfBytes)).toBe(true);
    // A text file was not OCR'd: no searchable PDF.
    const { version: txt } = await uploadText(owner, work.id, "plain.txt", "words");
    await extractFully(txt.id);
    expect((await download(txt.id, owner.token)).status).toBe(404);
  });

  it("reads page by page: a slice saves its pages, the next run resumes after them", { timeout: 300_000 }, async () => {
    const { owner, work } = await createSharedScene();
    const pdfBytes = await makeMixedPdf([{ png: renderTextPng(["The walrus chapter"]) }, { png: renderTextPng(["The penguin chapter"]) }]);
    const { version } = await uploadBytes(owner, work.id, "book.pdf", pdfBytes, "application/pdf");
    const db = await getDb();
    await extractText(db, version.id);
    // A slice with no time left still reads one page, then stops as a restart would find it.
    expect(await ocrSlice(db, version.id, 0)).toBe(true);
    const halfway = await textRow(version.id);
    expect(halfway).toMatchObject({ state: "preparing", pagesDone: 1 });
    expect(halfway.content.split("\f")[0].toLowerCase()).toContain("walrus");
    expect((await textState(owner.token, version.id)).body).toMatchObject({ state: "preparing", pages: 2, pages_done: 1 });
    // Already found by its first page while the second is being read.
    expect(names((await search(owner.token, work.id, "walrus")).body.files)).toEqual(["book.pdf"]);
    expect(await ocrSlice(db, version.id, 0)).toBe(false);
    const done = await textRow(version.id);
    expect(done.state).toBe("available");
    expect(done.content.split("\f")[1].toLowerCase()).toContain("penguin");
    expect(done.content.split("\f")[0].toLowerCase()).toContain("walrus");
    const searchable = await download(version.id, owner.token);
    expect(pdfToText(searchable.body).split("\f").filter((p) => p.trim())).toHaveLength(2);
  });

  it("an OCR that fails on its last attempt ends: the pages read so far stay searchable, the text is no longer preparing", { timeout: 300_000 }, async () => {
    const { owner, work } = await createSharedScene();
    const pdfBytes = await makeMixedPdf([{ png: renderTextPng(["The bison chapter"]) }, { png: renderTextPng(["The lynx chapter"]) }]);
    const { version } = await uploadBytes(owner, work.id, "torn.pdf", pdfBytes, "application/pdf");
    const db = await getDb();
    await extractText(db, version.id);
    expect(await ocrSlice(db, version.id, 0)).toBe(true);
    // The original goes missing from the store: every later slice throws.
    await getBlobStore().delete(version.blobId!);
    const job = sql`kind = 'texts.ocr' AND dedupe_key = ${`texts.ocr:${version.id}`}`;
    // The other tests' OCR jobs (their slices were run by hand) are not this test's to run.
    await db.execute(sql`UPDATE jobs SET status = 'done' WHERE kind = 'texts.ocr' AND status = 'pending' AND NOT (${job})`);
    await db.execute(sql`UPDATE jobs SET max_attempts = 2, run_at = now(), status = 'pending' WHERE ${job}`);
    await runDueJobs(db, ["texts.ocr"]);
    expect(await textRow(version.id)).toMatchObject({ state: "preparing", pagesDone: 1 });
    await db.execute(sql`UPDATE jobs SET run_at = now() WHERE ${job}`);
    await runDueJobs(db, ["texts.ocr"]);
    const [ended] = rows<{ status: string }>(await db.execute(sql`SELECT status FROM jobs WHERE ${job}`));
    expect(ended.status).toBe("failed");
    const text = await textRow(version.id);
    expect(text.state).toBe("available");
    expect(text.content.toLowerCase()).toContain("bison");
    expect(names((await search(owner.token, work.id, "bison")).body.files)).toEqual(["torn.pdf"]);
  });

  it("names Tesseract when it is missing: images unavailable, a PDF keeps its text layer, text files unaffected", { timeout: 120_000 }, async () => {
    const { owner, work } = await createSharedScene();
    const { version: png } = await uploadBytes(owner, work.id, "photo.png", renderTextPng(["Anything"]));
    const { version: pdf } = await uploadBytes(owner, work.id, "mixed.pdf", await makeMixedPdf([{ text: "A text layer about otters" }, { png: renderTextPng(["Scanned"]) }]), "application/pdf");
    const { version: txt } = await uploadText(owner, work.id, "notes.txt", "heron and otters");
    await withEnv({ PREVIEW_TESSERACT: "/nonexistent/tesseract" }, async () => {
      for (const v of [png, pdf, txt]) await extractFully(v.id);
    });
    expect(await textRow(png.id)).toMatchObject({ state: "unavailable", toolMissing: "tesseract" });
    expect(await textRow(pdf.id)).toMatchObject({ state: "available", toolMissing: "tesseract" });
    expect(await textRow(txt.id)).toMatchObject({ state: "available", toolMissing: null });
    expect(names((await search(owner.token, work.id, "otters")).body.files)).toEqual(["mixed.pdf", "notes.txt"]);
    expect((await textState(owner.token, png.id)).body).toMatchObject({ state: "unavailable", tool_missing: "tesseract" });
  });

  it("refuses the text state and the searchable PDF to others, to a user lacking the right, and without a token", { timeout: 300_000 }, async () => {
    const { owner, guest, work } = await createSharedScene();
    const { version } = await uploadBytes(owner, work.id, "id.png", renderTextPng(["Identity card"]));
    await extractFully(version.id);
    expect((await download(version.id, owner.token)).status).toBe(200);

    await expectAuthRequired(textRoute.GET, { path: `/api/file/${version.id}/text`, params: { fileId: String(version.id) } });
    expect((await download(version.id, null)).status).toBe(401);
    const stranger = await createTestUser();
    expectError(await textState(stranger.token, version.id), 403);
    expect((await download(version.id, stranger.token)).status).toBe(403);
    // Read without download: the state, not the PDF; browse alone: neither.
    await grantRight(work.id, guest.id, allRightsBut("download"));
    expect((await textState(guest.token, version.id)).status).toBe(200);
    expect((await download(version.id, guest.token)).status).toBe(403);
    await grantRight(work.id, guest.id, allRightsBut("read", "download"));
    expectError(await textState(guest.token, version.id), 403);
  });
});
