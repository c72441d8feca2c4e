import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as contentRoute from "@/app/api/preview/[fileId]/content/route";
import * as previewRoute from "@/app/api/preview/[fileId]/route";
import * as guidTokenRoute from "@/app/api/token/share/[guid]/[type]/[key]/route";
import { getDb } from "@/db";
import { downloadByToken } from "@/lib/server/downloads/serve-download";
import { makePreview } from "@/lib/server/previews/make-preview";
import { createFileToken } from "@/lib/server/tokens/create-file-token";
import { createTestUser, type TestUser } from "../../helpers/factories";
import { serveNode } from "../../helpers/node-server";
import { createFolder, ctxFor, grantRight } from "../../helpers/files";
import { call } from "../../helpers/http";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { callBytes, makePdf, makePng, uploadBytes } from "../previews/fixtures";
import { createShare } from "../shares/share-helpers";

// Findings 3, 4 and 11 of issue 11: originals need the download right, a single-download link's
// previews are renditions, and a rendition that cannot be made is a clean 415.
beforeAll(openDatabase, OPEN_TIMEOUT);

let server: Awaited<ReturnType<typeof serveNode>>;
let base = "";
beforeAll(async () => {
  server = await serveNode((req, res) => downloadByToken(req, res));
  base = server.url;
});
afterAll(async () => {
  await server.close();
});

const at = (versionId: number) => ({ params: { fileId: String(versionId) } });
const content = (versionId: number, query: Record<string, string>) => callBytes(contentRoute.GET, { ...at(versionId), query });
const shareToken = async (key: string, guid: string, type: "preview" | "download") => {
  const res = await call(guidTokenRoute.POST, { method: "POST", params: { key, guid, type } });
  expect(res.status, res.text).toBe(200);
  return res.body.token as string;
};
/** The token of the first content URL of a preview page. */
const pageToken = (html: string) => new URL(/src="([^"]+)"/.exec(html)![1].replace(/&amp;/g, "&"), "http://coffre.test").searchParams.get("token")!;

/** An owner's folder with a PNG and a PDF. */
async function scene() {
  const owner = await createTestUser();
  const folder = await createFolder(owner, owner.privateRootId!, "Shown");
  const png = await makePng(1800, 900);
  const pdf = makePdf(["First page words", "Second page words"]);
  const image = await uploadBytes(owner, folder.id, "photo.png", png, "image/png");
  const doc = await uploadBytes(owner, folder.id, "report.pdf", pdf, "application/pdf");
  await makePreview(await getDb(), doc.version.id);
  return { owner, folder, png, pdf, image, doc };
}

/** A rendition: a re-encoded image or a rendered page, never the original bytes. */
function expectRendition(res: Awaited<ReturnType<typeof content>>, original: Buffer) {
  expect(res.status, res.bytes.toString()).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^image\/(webp|png)$/);
  expect(res.bytes.equals(original)).toBe(false);
  expect(res.bytes.includes(original.subarray(0, 64))).toBe(false);
}

describe("originals need the download right (finding 3)", () => {
  async function reader(folderId: number, download: boolean): Promise<TestUser> {
    const user = await createTestUser();
    await grantRight(folderId, user.id, { read: true, download });
    return user;
  }

  it("a user with read but not download gets renditions through the page of their session", async () => {
    const { folder, png, pdf, image, doc } = await scene();
    const user = await reader(folder.id, false);
    const imagePage = await call(previewRoute.GET, { ...at(image.version.id), token: user.token });
    expect(imagePage.status, imagePage.text).toBe(200);
    expectRendition(await content(image.version.id, { token: pageToken(imagePage.text) }), png);

    const docPage = await call(previewRoute.GET, { ...at(doc.version.id), token: user.token });
    expect(docPage.status, docPage.text).toBe(200);
    // No link to the original either.
    expect(docPage.text).not.toMatch(/<a href="\/api\/preview/);
    const token = pageToken(docPage.text);
    expectRendition(await content(doc.version.id, { token }), pdf);
    expectRendition(await content(doc.version.id, { token, page: "2" }), pdf);
  });

  it("a preview token the user mints gives renditions, never the original bytes, ranges or not", async () => {
    const { folder, png, pdf, image, doc } = await scene();
    const user = await reader(folder.id, false);
    const ctx = await ctxFor(user);
    const imageToken = (await createFileToken(ctx, image.version.id, "preview")).token;
    expectRendition(await content(image.version.id, { token: imageToken }), png);
    const ranged = await callBytes(contentRoute.GET, { ...at(image.version.id), query: { token: imageToken }, headers: { range: "bytes=0-99" } });
    expect(ranged.bytes.equals(png.subarray(0, 100))).toBe(false);
    const docToken = (await createFileToken(ctx, doc.version.id, "preview")).token;
    expectRendition(await content(doc.version.id, { token: docToken }), pdf);
  });

  it("a download right withdrawn after the token was minted applies at redemption", async () => {
    const { folder, png, image } = await scene();
    const user = await reader(folder.id, true);
    const { token } = await createFileToken(await ctxFor(user), image.version.id, "preview");
    const original = await content(image.version.id, { token });
    expect(original.bytes.equals(png)).toBe(true);
    await grantRight(folder.id, user.id, { read: true, download: false });
    expectRendition(await content(image.version.id, { token }), png);
  });
});

describe("single-download links (finding 4)", () => {
  it("previews are renditions, and the download paths still claim the one download", async () => {
    const { owner, folder, png, pdf, image, doc } = await scene();
    const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }], flags: 4 | 128 });

    for (let i = 0; i < 3; i++) {
      const token = await shareToken(share.key, image.file.guid, "preview");
      expectRendition(await content(image.version.id, { token }), png);
      const page = await call(previewRoute.GET, { ...at(image.version.id), query: { token } });
      expect(page.status, page.text).toBe(200);
      expect(page.text).not.toMatch(/<a href="\/api\/preview/);
    }
    const docToken = await shareToken(share.key, doc.file.guid, "preview");
    expectRendition(await content(doc.version.id, { token: docToken }), pdf);

    // The one download is still there for the download path, and then it is gone.
    const download = await fetch(`${base}/api/file/download?token=${encodeURIComponent(await shareToken(share.key, image.file.guid, "download"))}`);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(png)).toBe(true);
    const again = await call(guidTokenRoute.POST, { method: "POST", params: { key: share.key, guid: image.file.guid, type: "download" } });
    expect(again.status).toBe(410);
    expect(again.body.code).toBe("link_exhausted");
  });
});

describe("damaged files behind a preview-only link (finding 11)", () => {
  it("a damaged PNG and a damaged PDF are a 415 with the error body, not a 500 nor a cut connection", async () => {
    const owner = await createTestUser();
    const folder = await createFolder(owner, owner.privateRootId!, "Damaged");
    const png = await makePng(600, 400);
    // A real signature and header, then garbage: typed image/png and application/pdf by their bytes.
    const brokenPng = Buffer.concat([png.subarray(0, 40), Buffer.alloc(4000, 0x5a)]);
    const brokenPdf = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\ngarbage without xref or trailer\n%%EOF\n", "latin1");
    const image = await uploadBytes(owner, folder.id, "broken.png", brokenPng);
    const doc = await uploadBytes(owner, folder.id, "broken.pdf", brokenPdf);
    expect(image.version.mime).toBe("image/png");
    expect(doc.version.mime).toBe("application/pdf");
    const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }], flags: 2 });

    for (const [item, query] of [
      [image, {}],
      [doc, {}],
      [doc, { page: "1" }],
    ] as const) {
      const token = await shareToken(share.key, item.file.guid, "preview");
      const res = await content(item.version.id, { token, ...query });
      expect(res.status, res.bytes.toString()).toBe(415);
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
      const body = JSON.parse(res.bytes.toString());
      expect(body).toMatchObject({ code: "unsupported_media_type" });
      expect(typeof body.error).toBe("string");
    }
  });
});
