import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as createRoute from "@/app/api/file/route";
import * as fileRoute from "@/app/api/file/[fileId]/route";
import { PUT as replaceRoute } from "@/app/api/file/[fileId]/upload/route";
import { POST as uploadRoute } from "@/app/api/file/upload/route";
import { getDb } from "@/db";
import { fileVersions } from "@/db/schema";
import { fileResponse } from "@/lib/contracts/files";
import { MAX_META_CHARS } from "@/lib/server/meta/clean-meta";
import { createTestUser, type TestUser } from "../../helpers/factories";
import { createFolder, grantRight } from "../../helpers/files";
import { healthWhile, warmHealth } from "../../helpers/health";
import { call, expectError } from "../../helpers/http";
import { damagedPdf } from "../../helpers/pdf-fixtures";
import { expectAuthRequired } from "../../helpers/security";
import { multipartBody, openDatabase } from "../../helpers/upload-factories";
import { runMetaJobOf, docxBomb, docxBombLyingAboutSize, docxOfManyEntries, docxWithProperties, jpegWithExif, jpegWithMalformedExif, odtWithProperties, pdfWithInfo } from "./meta-fixtures";

const created = new Date("2024-03-05T10:20:30Z");
const INFO = { title: "Quarterly report", author: "Ada Lovelace", subject: "Finance", keywords: ["alpha", "beta"], creator: "Writer 7", producer: "Coffre PDF 1.0", created, pages: 3 };

const upload = (user: TestUser, name: string, data: Uint8Array, query: Record<string, string> = {}) => {
  const { body, contentType } = multipartBody([
    { name: "folderId", value: String(user.privateRootId) },
    { name: "targetFile", filename: name, data },
  ]);
  return call(uploadRoute, { method: "POST", path: "/api/file/upload", token: user.token, rawBody: body, query, headers: { "content-type": contentType, "content-length": String(body.length) } });
};
const read = (token: string | null, id: number, query: Record<string, string> = { meta: "1", full: "1" }) =>
  call(fileRoute.GET, { path: `/api/file/${id}`, token, params: { fileId: String(id) }, query });

/** Uploads a file and answers its version id (the contract's File id). */
async function uploaded(user: TestUser, name: string, data: Uint8Array): Promise<number> {
  const res = await upload(user, name, data);
  expect(res.status, res.text).toBe(201);
  return fileResponse.parse(res.body).id;
}

const storedMeta = async (versionId: number) => (await (await getDb()).select({ meta: fileVersions.meta }).from(fileVersions).where(eq(fileVersions.id, versionId)))[0]?.meta;

/** Runs this version's metadata job; answers the meta GET /file shows then. */
async function metaAfterJob(user: TestUser, versionId: number): Promise<Record<string, unknown>> {
  await runMetaJobOf(versionId);
  expect(await storedMeta(versionId)).not.toBeNull();
  const res = await read(user.token, versionId);
  expect(res.status, res.text).toBe(200);
  return fileResponse.parse(res.body).meta!;
}

beforeAll(openDatabase, 180_000);

describe("file metadata (api.md, \"File metadata\")", () => {
  it("reads a PDF's information dictionary and page count after upload; {} before the job has run", async () => {
    const user = await createTestUser();
    const res = await upload(user, "report.pdf", await pdfWithInfo(INFO), { meta: "1", full: "1" });
    expect(res.status, res.text).toBe(201);
    const file = fileResponse.parse(res.body);
    // The upload's own answer comes before the job: meta is there, and empty.
    expect(file.meta).toEqual({});
    expect(file.mime).toBe("application/pdf");
    expect((await read(user.token, file.id)).body.meta).toEqual({});
    expect(await metaAfterJob(user, file.id)).toEqual({
      title: "Quarterly report",
      author: "Ada Lovelace",
      subject: "Finance",
      keywords: "alpha beta",
      creator: "Writer 7",
      producer: "Coffre PDF 1.0",
      date: "2024-03-05T10:20:30.000Z",
      pages: 3,
    });
    // Without `meta`, no meta.
    expect((await read(user.token, file.id, { full: "1" })).body).not.toHaveProperty("meta");
  });

  it("reads a docx's core properties and its page count and application from app.xml", async () => {
    const user = await createTestUser();
    const id = await uploaded(user, "letter.docx", await docxWithProperties({ ...INFO, creator: "Microsoft Office Word", pages: 4 }));
    expect(await metaAfterJob(user, id)).toEqual({
      title: "Quarterly report",
      author: "Ada Lovelace",
      subject: "Finance",
      keywords: "alpha, beta",
      creator: "Microsoft Office Word",
      date: "2024-03-05T10:20:30.000Z",
      pages: 4,
    });
  });

  it("reads an odt's meta.xml: the initial creator is the author, keywords joined, a date without zone read as UTC", async () => {
    const user = await createTestUser();
    const id = await uploaded(user, "letter.odt", await odtWithProperties({ ...INFO, creator: "LibreOffice/7.4", pages: 2 }));
    expect(await metaAfterJob(user, id)).toEqual({
      title: "Quarterly report",
      author: "Ada Lovelace",
      subject: "Finance",
      keywords: "alpha, beta",
      creator: "LibreOffice/7.4",
      date: "2024-03-05T10:20:30.000Z",
      pages: 2,
    });
  });

  it("reads an image's EXIF: date taken, artist, camera (JPEG, and WebP read whole)", async () => {
    const user = await createTestUser();
    const id = await uploaded(user, "photo.jpg", await jpegWithExif({ artist: "Ada Lovelace", make: "Canon", model: "Canon EOS 5D", taken: "2023:07:14 09:08:07" }));
    expect(await metaAfterJob(user, id)).toEqual({ author: "Ada Lovelace", camera: "Canon EOS 5D", date: "2023-07-14T09:08:07.000Z" });
    const webp = await uploaded(user, "photo.webp", await jpegWithExif({ artist: "Grace Hopper", make: "NIKON", model: "D750", taken: "2022:01:02 03:04:05" }, "webp"));
    expect(await metaAfterJob(user, webp)).toEqual({ author: "Grace Hopper", camera: "NIKON D750", date: "2022-01-02T03:04:05.000Z" });
  });

  it("cleans what a file says: no NUL or bidi controls, values cut at 1,000 characters, empty ones left out", async () => {
    const user = await createTestUser();
    const pdf = await pdfWithInfo({ ...INFO, title: "Invoice\u0000 \u202Efdp.exe\u202C", subject: "é".repeat(5000), keywords: [], producer: "p".repeat(2_000_000), creator: " " });
    const id = await uploaded(user, "odd.pdf", pdf);
    const meta = await metaAfterJob(user, id);
    expect(meta.title).toBe("Invoice fdp.exe");
    expect(meta.subject).toBe("é".repeat(MAX_META_CHARS));
    expect(meta.producer).toBe("p".repeat(MAX_META_CHARS));
    expect(meta).not.toHaveProperty("keywords");
    expect(meta).not.toHaveProperty("creator");
  });

  it("ends hostile files as {} without failing the job or holding up /api/health: a zip bomb (true to its sizes or not), 100,000 entries, a damaged PDF, a malformed EXIF", async () => {
    const user = await createTestUser();
    const ids = [
      await uploaded(user, "bomb.docx", await docxBomb(200)),
      await uploaded(user, "lying.docx", await docxBombLyingAboutSize(200)),
      await uploaded(user, "names.docx", docxOfManyEntries(100_000)),
      await uploaded(user, "damaged.pdf", await damagedPdf()),
      await uploaded(user, "bad-exif.jpg", await jpegWithMalformedExif()),
    ];
    await warmHealth();
    // Each job ends without throwing (a throw would mean a retry), not even before its last attempt.
    const { times } = await healthWhile((async () => {
      for (const id of ids) await runMetaJobOf(id);
    })());
    const metas = await Promise.all(ids.map((id) => read(user.token, id).then((res) => res.body.meta)));
    expect(metas.slice(0, 4)).toEqual([{}, {}, {}, {}]);
    // The same archive under the ceiling of entries is read to its last one: the 100,000 were refused for their number.
    const fewer = await uploaded(user, "fewer.docx", docxOfManyEntries(19_000));
    expect(await metaAfterJob(user, fewer)).toEqual({ title: "Many", author: "A", subject: "S", date: "2024-01-01T00:00:00.000Z" });
    // The malformed EXIF: nothing, or what could be read before the damage, never a failure.
    console.log(`[meta] the malformed EXIF read as ${JSON.stringify(metas[4])}`);
    expect(Object.keys(metas[4]).every((key) => ["author", "camera", "date"].includes(key))).toBe(true);
    console.log(`[meta] /api/health during hostile files: ${times.length} answers, slowest ${Math.max(...times).toFixed(1)} ms`);
    expect(Math.max(...times)).toBeLessThan(1000);
  }, 180_000);

  it("a copy keeps its source's metadata at once; replaced content is read again", async () => {
    const user = await createTestUser();
    const id = await uploaded(user, "report.pdf", await pdfWithInfo(INFO));
    const source = await metaAfterJob(user, id);
    const copy = await call(createRoute.POST, { method: "POST", path: "/api/file", token: user.token, body: { name: "copy.pdf" }, query: { copy: id } });
    expect(copy.status, copy.text).toBe(201);
    const copyId = fileResponse.parse(copy.body).id;
    expect((await read(user.token, copyId)).body.meta).toEqual(source);

    const replaced = await call(replaceRoute, {
      method: "PUT",
      token: user.token,
      params: { fileId: String(id) },
      rawBody: (await pdfWithInfo({ ...INFO, title: "Second draft", pages: 1 })) as BodyInit,
      headers: { "content-type": "application/octet-stream" },
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect((await read(user.token, id)).body.meta).toEqual({});
    expect(await metaAfterJob(user, id)).toMatchObject({ title: "Second draft", pages: 1 });
    // The copy shares the old bytes, and keeps their metadata.
    expect((await read(user.token, copyId)).body.meta).toMatchObject({ title: "Quarterly report", pages: 3 });
  });

  it("refuses the file to another user (403) and without a token (401); a user with browse but not read gets it without meta", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const folder = await createFolder(owner, owner.privateRootId!, "shared");
    const { body, contentType } = multipartBody([
      { name: "folderId", value: String(folder.id) },
      { name: "targetFile", filename: "report.pdf", data: await pdfWithInfo(INFO) },
    ]);
    const res = await call(uploadRoute, { method: "POST", path: "/api/file/upload", token: owner.token, rawBody: body, headers: { "content-type": contentType, "content-length": String(body.length) } });
    expect(res.status, res.text).toBe(201);
    const id = fileResponse.parse(res.body).id;
    await metaAfterJob(owner, id);

    expectError(await read(other.token, id), 403);
    await grantRight(folder.id, other.id, { browse: true });
    // Browse alone reads the File (the contract's right for it), but not what its content says.
    const browsing = await read(other.token, id);
    expect(browsing.status, browsing.text).toBe(200);
    expect(browsing.body.id).toBe(id);
    expect(browsing.body).not.toHaveProperty("meta");
    await grantRight(folder.id, other.id, { browse: true, read: true });
    const allowed = await read(other.token, id);
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.body.meta).toMatchObject({ title: "Quarterly report", pages: 3 });
    await expectAuthRequired(fileRoute.GET, { path: `/api/file/${id}`, params: { fileId: String(id) }, query: { meta: "1", full: "1" } });
  });
});
