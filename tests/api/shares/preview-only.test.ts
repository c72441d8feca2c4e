import { beforeAll, describe, expect, it } from "vitest";
import * as guidTokenRoute from "@/app/api/token/share/[guid]/[type]/[key]/route";
import * as contentRoute from "@/app/api/preview/[fileId]/content/route";
import * as previewRoute from "@/app/api/preview/[fileId]/route";
import * as mixerRoute from "@/app/api/mixer/[fileId]/route";
import { getDb } from "@/db";
import { makePreview } from "@/lib/server/previews/make-preview";
import { createTestUser } from "../../helpers/factories";
import { createFolder } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { callBytes, makePdf, makePng, uploadBytes } from "../previews/fixtures";
import { createShare } from "./share-helpers";

beforeAll(openDatabase, OPEN_TIMEOUT);

const previewToken = async (key: string, guid: string) => {
  const res = await call(guidTokenRoute.POST, { method: "POST", params: { key, guid, type: "preview" } });
  expect(res.status, res.text).toBe(200);
  return res.body.token as string;
};
const at = (versionId: number) => ({ params: { fileId: String(versionId) } });

/** An owner's folder with a PNG and a two-page PDF, shared with the given flags. */
async function scene(flags: number) {
  const owner = await createTestUser();
  const folder = await createFolder(owner, owner.privateRootId!, "Shown");
  const png = await makePng(2400, 1200);
  const pdf = makePdf(["First page words", "Second page words"]);
  const image = await uploadBytes(owner, folder.id, "photo.png", png, "image/png");
  const doc = await uploadBytes(owner, folder.id, "report.pdf", pdf, "application/pdf");
  await makePreview(await getDb(), doc.version.id);
  const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }], flags });
  return { png, pdf, image, doc, share };
}

describe("link-share previews", () => {
  it("a preview-only link shows renditions, never the original bytes", async () => {
    const { png, pdf, image, doc, share } = await scene(2);

    const imageToken = await previewToken(share.key, image.file.guid);
    const imagePage = await call(previewRoute.GET, { ...at(image.version.id), query: { token: imageToken } });
    expect(imagePage.status, imagePage.text).toBe(200);
    const imageContent = await callBytes(contentRoute.GET, { ...at(image.version.id), query: { token: imageToken } });
    expect(imageContent.status).toBe(200);
    expect(imageContent.headers.get("content-type")).toBe("image/webp");
    expect(imageContent.bytes.equals(png)).toBe(false);
    expect(imageContent.bytes.subarray(8, 12).toString()).toBe("WEBP");

    const docToken = await previewToken(share.key, doc.file.guid);
    const docPage = await call(previewRoute.GET, { ...at(doc.version.id), query: { token: docToken } });
    expect(docPage.status, docPage.text).toBe(200);
    expect(docPage.text).toContain("&amp;page=2");
    expect(docPage.text).not.toContain("<iframe");
    const first = await callBytes(contentRoute.GET, { ...at(doc.version.id), query: { token: docToken, page: "1" } });
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("image/png");
    expect(first.bytes.subarray(1, 4).toString()).toBe("PNG");
    expect(first.bytes.includes(pdf.subarray(0, 8))).toBe(false);
    expectError(await call(contentRoute.GET, { ...at(doc.version.id), query: { token: docToken, page: "3" } }), 404);
  });

  it("a view-and-download link previews the original bytes", async () => {
    const { png, image, share } = await scene(4);
    const token = await previewToken(share.key, image.file.guid);
    const content = await callBytes(contentRoute.GET, { ...at(image.version.id), query: { token } });
    expect(content.status).toBe(200);
    expect(content.bytes.equals(png)).toBe(true);
  });

  it("serves the thumbnails of the files a share shows, by its key, even on a preview-only link", async () => {
    const { image, share } = await scene(2);
    await makePreview(await getDb(), image.version.id);
    const thumb = await callBytes(mixerRoute.GET, { ...at(image.version.id), query: { key: share.key } });
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("content-type")).toBe("image/webp");
    // Another user's file, through this key: not in the share.
    const elsewhere = await scene(4);
    await makePreview(await getDb(), elsewhere.image.version.id);
    expectError(await call(mixerRoute.GET, { ...at(elsewhere.image.version.id), query: { key: share.key } }), 404);
    expectError(await call(mixerRoute.GET, { ...at(image.version.id), query: { key: "no-such-key" } }), 404);
    expectError(await call(mixerRoute.GET, at(image.version.id)), 401);
    // A download-only link shows no previews, thumbnails included.
    const downloadOnly = await scene(1);
    await makePreview(await getDb(), downloadOnly.image.version.id);
    expectError(await call(mixerRoute.GET, { ...at(downloadOnly.image.version.id), query: { key: downloadOnly.share.key } }), 403);
  });

  it("a share's preview token opens only the file it was issued for", async () => {
    const { image, doc, share } = await scene(2);
    const token = await previewToken(share.key, image.file.guid);
    expectError(await call(previewRoute.GET, { ...at(doc.version.id), query: { token } }), 403);
  });
});
