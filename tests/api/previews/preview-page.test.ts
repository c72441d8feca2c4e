import { beforeAll, describe, expect, it } from "vitest";
import * as contentRoute from "@/app/api/preview/[fileId]/content/route";
import * as previewRoute from "@/app/api/preview/[fileId]/route";
import { createFileToken } from "@/lib/server/tokens/create-file-token";
import { createTestUser } from "../../helpers/factories";
import { createFileScene, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { allRightsBut, ctxFor, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired, expectRefusedFor } from "../../helpers/security";
import { callBytes, fakeMp3, fakeMp4, fakeZip, makePdf, makePng, uploadBytes } from "./fixtures";

beforeAll(openDatabase, OPEN_TIMEOUT);

const at = (versionId: number) => ({ params: { fileId: String(versionId) } });
const page = (token: string | null, versionId: number, query: Record<string, string> = {}) => call(previewRoute.GET, { ...at(versionId), token, query });
/** The URL the page loads the content from (HTML-escaped in the page). */
const contentUrlOf = (html: string) => new URL(/src="([^"]+)"/.exec(html)![1].replace(/&amp;/g, "&"), "http://coffre.test");

function expectSafePage(res: Awaited<ReturnType<typeof page>>) {
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  const csp = res.headers.get("content-security-policy")!;
  expect(csp).toContain("default-src 'none'");
  expect(csp).not.toContain("script-src");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(res.text).not.toMatch(/<script/i);
}

describe("GET /api/preview/(fileId)", () => {
  it("shows an image through the content route, whose token serves the bytes inline", async () => {
    const { owner, folder } = await createFileScene();
    const png = await makePng(40, 20);
    const { version } = await uploadBytes(owner, folder.id, "photo.png", png, "image/png");
    const res = await page(owner.token, version.id);
    expectSafePage(res);
    expect(res.text).toContain(`<img src="/api/preview/${version.id}/content?token=`);
    expect(res.text).toContain('alt="photo.png"');

    const url = contentUrlOf(res.text);
    const token = url.searchParams.get("token")!;
    const content = await callBytes(contentRoute.GET, { ...at(version.id), query: { token } });
    expect(content.status).toBe(200);
    expect(content.bytes.equals(png)).toBe(true);
    expect(content.headers.get("content-type")).toBe("image/png");
    expect(content.headers.get("content-disposition")).toMatch(/^inline; filename="photo.png"/);
    expect(content.headers.get("content-security-policy")).toMatch(/^sandbox/);
    const partial = await callBytes(contentRoute.GET, { ...at(version.id), query: { token }, headers: { range: "bytes=0-7" } });
    expect(partial.status).toBe(206);
    expect(partial.headers.get("content-range")).toBe(`bytes 0-7/${png.length}`);
    expect(partial.bytes.equals(png.subarray(0, 8))).toBe(true);
    expectError(await call(contentRoute.GET, { ...at(version.id), query: { token }, headers: { range: `bytes=${png.length + 5}-` } }), 416);
  });

  it("shows text escaped, HTML in a sandbox, PDF as pages with a link to the original, media in players, others as a download link", async () => {
    const { owner, folder } = await createFileScene();
    const { version: text } = await uploadText(owner, folder.id, "evil.txt", `<script>alert(1)</script> & "quotes"`);
    const textPage = await page(owner.token, text.id);
    expectSafePage(textPage);
    expect(textPage.text).toContain("<pre>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;</pre>");

    const { version: html } = await uploadText(owner, folder.id, "page.html", "<script>alert(1)</script>");
    const htmlPage = await page(owner.token, html.id);
    expectSafePage(htmlPage);
    expect(htmlPage.text).toMatch(/<iframe sandbox src="\/api\/preview\/\d+\/content\?token=/);
    const htmlContent = await call(contentRoute.GET, { ...at(html.id), query: { token: contentUrlOf(htmlPage.text).searchParams.get("token")! } });
    expect(htmlContent.headers.get("content-security-policy")).toMatch(/^sandbox; default-src 'none'/);

    const { version: pdf } = await uploadBytes(owner, folder.id, "doc.pdf", makePdf(["hello"]), "application/pdf");
    const pdfPage = await page(owner.token, pdf.id);
    expectSafePage(pdfPage);
    // No browser shows a PDF in a sandboxed frame, and every frame of content is sandboxed: pages.
    expect(pdfPage.text).not.toMatch(/<iframe(?![^>]*sandbox)/);
    expect(pdfPage.text).toMatch(/<a href="\/api\/preview\/\d+\/content\?token=[^"]+" target="_blank" rel="noopener noreferrer">Open doc.pdf<\/a>/);
    expect(pdfPage.text).toMatch(/<img class="page" src="\/api\/preview\/\d+\/content\?token=[^"]+&amp;page=1" alt="doc.pdf, page 1"/);
    const pdfContent = await call(contentRoute.GET, { ...at(pdf.id), query: { token: contentUrlOf(pdfPage.text).searchParams.get("token")! } });
    expect(pdfContent.headers.get("content-type")).toBe("application/pdf");
    expect(pdfContent.headers.get("content-security-policy")).toBeNull();

    const { version: video } = await uploadBytes(owner, folder.id, "clip.mp4", fakeMp4(), "video/mp4");
    expect((await page(owner.token, video.id)).text).toMatch(/<video controls preload="metadata" src="\/api\/preview\/\d+\/content\?token=/);
    const { version: audio } = await uploadBytes(owner, folder.id, "song.mp3", fakeMp3(), "audio/mpeg");
    expect((await page(owner.token, audio.id)).text).toMatch(/<audio controls/);
    const { version: zip } = await uploadBytes(owner, folder.id, "a<b>.zip", fakeZip(), "application/zip");
    const zipPage = await page(owner.token, zip.id);
    expectSafePage(zipPage);
    expect(zipPage.text).toContain(`a&lt;b&gt;.zip<br><a href="/api/file/${zip.id}/download" download>`);
  });

  it("opens with a preview token instead of a session, for that version only", async () => {
    const { owner, folder, version } = await createFileScene({ name: "a.txt", text: "token text" });
    const { version: otherFile } = await uploadText(owner, folder.id, "b.txt", "other");
    const { token } = await createFileToken(await ctxFor(owner), version.id, "preview");
    const res = await page(null, version.id, { token });
    expectSafePage(res);
    expect(res.text).toContain("<pre>token text</pre>");
    expectError(await page(null, otherFile.id, { token }), 403, "forbidden");
    expectError(await page(null, version.id, { token: "forged" }), 403, "forbidden");
    const { token: download } = await createFileToken(await ctxFor(owner), version.id, "download");
    expectError(await page(null, version.id, { token: download }), 403, "forbidden");
    expectError(await call(contentRoute.GET, { ...at(version.id) }), 400, "invalid_request");
    expectError(await call(contentRoute.GET, { ...at(otherFile.id), query: { token } }), 403, "forbidden");
  });

  it("needs the read right", async () => {
    const { owner, other, folder, version } = await createFileScene();
    await expectAuthRequired(previewRoute.GET, at(version.id));
    await expectRefusedFor(other.token, previewRoute.GET, at(version.id));
    const lacking = await createTestUser();
    await grantRight(folder.id, lacking.id, allRightsBut("read"));
    await expectRefusedFor(lacking.token, previewRoute.GET, at(version.id));
    const reader = await createTestUser();
    await grantRight(folder.id, reader.id, { read: true });
    expect((await page(reader.token, version.id)).status).toBe(200);
    // A token whose user has lost the right since is refused too.
    const { token } = await createFileToken(await ctxFor(reader), version.id, "preview");
    await grantRight(folder.id, reader.id, allRightsBut("read"));
    expectError(await page(null, version.id, { token }), 403, "forbidden");
    expectError(await page(owner.token, 999999999), 404, "not_found");
  });
});
