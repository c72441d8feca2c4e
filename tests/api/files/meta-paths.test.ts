import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as folderRoute from "@/app/api/folder/route";
import * as fileRoute from "@/app/api/file/[fileId]/route";
import { POST as fileTus } from "@/app/api/file/tus/route";
import * as tusRoute from "@/app/api/tus/[[...path]]/route";
import { POST as uploadRoute } from "@/app/api/file/upload/route";
import * as ulinkUploadRoute from "@/app/api/ulink/key/[key]/upload/route";
import { getDb } from "@/db";
import { fileVersions, jobs } from "@/db/schema";
import { fileResponse } from "@/lib/contracts/files";
import { folderResponse } from "@/lib/contracts/folders";
import { tusSessionResponse } from "@/lib/contracts/uploads";
import { davHandler } from "@/lib/server/dav/dav-handler";
import { createTestUser, type TestUser } from "../../helpers/factories";
import { createFolder } from "../../helpers/files";
import { call } from "../../helpers/http";
import { serveNode } from "../../helpers/node-server";
import { filesNamed, multipartBody, openDatabase } from "../../helpers/upload-factories";
import { createLink } from "../ulinks/ulink-helpers";
import { META_JOB, pdfWithInfo, runMetaJobOf } from "./meta-fixtures";

// Every way content arrives queues the metadata job (api.md, "File metadata"); a folder copy keeps its sources' metadata.

const pdf = (title: string) => pdfWithInfo({ title, author: "Ada", subject: "S", keywords: [], creator: "C", producer: "P", created: new Date("2024-03-05T10:20:30Z"), pages: 2 });
const storedMeta = async (versionId: number) => (await (await getDb()).select({ meta: fileVersions.meta }).from(fileVersions).where(eq(fileVersions.id, versionId)))[0]?.meta;
const read = (user: TestUser, id: number) => call(fileRoute.GET, { path: `/api/file/${id}`, token: user.token, params: { fileId: String(id) }, query: { meta: "1", full: "1" } });

async function expectMetaRead(user: TestUser, versionId: number, title: string) {
  expect(await storedMeta(versionId)).toBeNull();
  await runMetaJobOf(versionId);
  const res = await read(user, versionId);
  expect(res.status, res.text).toBe(200);
  expect(res.body.meta).toMatchObject({ title, author: "Ada", pages: 2, date: "2024-03-05T10:20:30.000Z" });
}

const onlyVersion = async (folderId: number, name: string) => {
  const [found] = await filesNamed(folderId, name);
  expect(found, name).toBeDefined();
  return found.versions[0].id;
};

let dav: Awaited<ReturnType<typeof serveNode>>;
beforeAll(async () => {
  await openDatabase();
  dav = await serveNode(davHandler);
}, 180_000);
afterAll(async () => {
  await dav?.close();
});

describe("the metadata job behind every upload path", () => {
  it("chunked upload: the last chunk's File carries meta {} with ?meta=1&full=1, then the job fills it", async () => {
    const user = await createTestUser();
    const data = Buffer.from(await pdf("Chunked"));
    const size = Math.ceil(data.length / 2);
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (const index of [0, 1]) {
      const { body, contentType } = multipartBody([
        { name: "folderId", value: String(user.privateRootId) },
        { name: "chunk", value: String(index) },
        { name: "chunks", value: "2" },
        { name: "chunksSize", value: String(size) },
        { name: "fileSize", value: String(data.length) },
        { name: "targetFile", filename: "chunked.pdf", data: data.subarray(index * size, (index + 1) * size) },
      ]);
      last = await call(uploadRoute, { method: "POST", token: user.token, rawBody: body, headers: { "content-type": contentType }, query: { meta: "1", full: "1" } });
    }
    expect(last!.status, last!.text).toBe(201);
    const file = fileResponse.parse(last!.body);
    expect(file.meta).toEqual({});
    await expectMetaRead(user, file.id, "Chunked");
  });

  it("tus upload", async () => {
    const user = await createTestUser();
    const data = await pdf("Resumed");
    const opened = await call(fileTus, { method: "POST", token: user.token, body: { name: "tus.pdf", target: user.privateRootId, size: data.length } });
    expect(opened.status, opened.text).toBe(201);
    const key = tusSessionResponse.parse(opened.body)[0].sessionKey;
    const tus = async (method: "POST" | "PATCH", path: string, headers: Record<string, string>, body?: Uint8Array) => {
      const req = new Request(`http://coffre.test${path}`, { method, headers: { "tus-resumable": "1.0.0", authorization: `Bearer ${user.token}`, ...headers }, body: body as BodyInit | undefined, duplex: "half" } as RequestInit);
      return tusRoute[method](req);
    };
    const b64 = (s: string) => Buffer.from(s).toString("base64");
    const created = await tus("POST", "/api/tus", { "upload-length": String(data.length), "upload-metadata": `token ${b64(key)},filename ${b64("x")}` });
    expect(created.status).toBe(201);
    const sent = await tus("PATCH", created.headers.get("location")!, { "upload-offset": "0", "content-type": "application/offset+octet-stream" }, data);
    expect(sent.status).toBe(204);
    const done = await call(fileTus, { method: "POST", token: user.token, body: { token: key } });
    expect(done.status, done.text).toBe(201);
    await expectMetaRead(user, fileResponse.parse(done.body).id, "Resumed");
  });

  it("WebDAV PUT", async () => {
    const user = await createTestUser();
    const res = await fetch(`${dav.url}/dav/Private/dav.pdf`, {
      method: "PUT",
      body: Buffer.from(await pdf("Through WebDAV")),
      headers: { authorization: `Basic ${Buffer.from(`${user.login}:${user.password}`).toString("base64")}` },
    });
    expect(res.status).toBe(201);
    await expectMetaRead(user, await onlyVersion(user.privateRootId!, "dav.pdf"), "Through WebDAV");
  });

  it("a drop link's deposit", async () => {
    const owner = await createTestUser();
    const folder = await createFolder(owner, owner.privateRootId!, "drops");
    const link = await createLink(owner, { folder_id: folder.id, name: "Supplier drop" });
    const { body, contentType } = multipartBody([{ name: "targetFile", filename: "dropped.pdf", data: await pdf("Dropped") }]);
    const res = await call(ulinkUploadRoute.POST, { method: "POST", params: { key: link.key }, rawBody: body, headers: { "content-type": contentType, "x-forwarded-for": "198.51.100.9" } });
    expect(res.status, res.text).toBe(201);
    await expectMetaRead(owner, await onlyVersion(folder.id, "dropped.pdf"), "Dropped");
  });

  it("a folder copy keeps the metadata its sources have, and reads the metadata of those not read yet", async () => {
    const user = await createTestUser();
    const work = await createFolder(user, user.privateRootId!, "work");
    const upload = async (name: string, title: string) => {
      const { body, contentType } = multipartBody([
        { name: "folderId", value: String(work.id) },
        { name: "targetFile", filename: name, data: await pdf(title) },
      ]);
      const res = await call(uploadRoute, { method: "POST", token: user.token, rawBody: body, headers: { "content-type": contentType } });
      expect(res.status, res.text).toBe(201);
      return fileResponse.parse(res.body).id;
    };
    const read1 = await upload("read.pdf", "Read before");
    await runMetaJobOf(read1);
    await upload("unread.pdf", "Not read yet");
    // The second one's job has not run: as if it had not been queued yet when the folder is copied.
    const db = await getDb();
    await db.delete(jobs).where(and(eq(jobs.kind, META_JOB), eq(jobs.dedupeKey, `${META_JOB}:${await onlyVersion(work.id, "unread.pdf")}`)));

    const dest = await createFolder(user, user.privateRootId!, "dest");
    const res = await call(folderRoute.POST, { method: "POST", path: "/api/folder", token: user.token, body: { parent_id: dest.id }, query: { copy: work.id } });
    expect(res.status, res.text).toBe(201);
    const copy = folderResponse.parse(res.body);
    const copiedRead = await onlyVersion(copy.id, "read.pdf");
    expect((await read(user, copiedRead)).body.meta).toMatchObject({ title: "Read before", pages: 2 });
    await expectMetaRead(user, await onlyVersion(copy.id, "unread.pdf"), "Not read yet");
  });
});
