import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as copyRoute from "@/app/api/template/file/copy/route";
import * as contentRoute from "@/app/api/template/file/[templateId]/content/route";
import * as oneRoute from "@/app/api/template/file/[templateId]/route";
import * as createRoute from "@/app/api/template/file/route";
import * as listRoute from "@/app/api/template/files/[folderId]/route";
import * as tokenRoute from "@/app/api/token/template/[id]/[type]/route";
import { getDb } from "@/db";
import { blobs, fileTemplates, fileVersions, files, templateTokens } from "@/db/schema";
import { fileResponse } from "@/lib/contracts/files";
import { templateResponse } from "@/lib/contracts/templates";
import { hashToken } from "@/lib/server/auth/tokens";
import { collectBlobs } from "@/lib/server/blobs/collect-blobs";
import { getBlobStore } from "@/lib/storage";
import { blobExists } from "../../helpers/blob-files";
import { createAdmin, createTestUser, latestLog, unique, type TestUser } from "../../helpers/factories";
import { createFileScene, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { filesNamed, md5 } from "../../helpers/upload-factories";
import { makePng, uploadBytes } from "../previews/fixtures";

beforeAll(openDatabase, OPEN_TIMEOUT);

const one = (id: number) => ({ path: `/api/template/file/${id}`, params: { templateId: String(id) } });
const make = (token: string, body: unknown) => call(createRoute.POST, { method: "POST", path: "/api/template/file", token, body });
const list = (token: string, folderId: number, query: Record<string, number> = {}) =>
  call(listRoute.GET, { path: `/api/template/files/${folderId}`, params: { folderId: String(folderId) }, token, query });
const copy = (token: string, body: unknown) => call(copyRoute.POST, { method: "POST", path: "/api/template/file/copy", token, body });
const read = (token: string, id: number) => call(oneRoute.GET, { ...one(id), token });
const update = (token: string, id: number, body: unknown) => call(oneRoute.PUT, { ...one(id), method: "PUT", token, body });
const remove = (token: string, id: number) => call(oneRoute.DELETE, { ...one(id), method: "DELETE", token });
const tokenFor = (token: string, id: number, type = "download") => call(tokenRoute.POST, { method: "POST", token, params: { id: String(id), type } });
const content = (id: number, options: { token?: string; session?: string } = {}) =>
  call(contentRoute.GET, { path: `/api/template/file/${id}/content`, params: { templateId: String(id) }, token: options.session, query: options.token ? { token: options.token } : {} });

async function makeTemplate(user: TestUser, body: Record<string, unknown>) {
  const res = await make(user.token, body);
  expect(res.status, res.text).toBe(201);
  return templateResponse.strict().parse(res.body);
}

/** An owner's "Models" folder holding letter.txt, and a sub-folder "Clients/ACME" below it. */
async function scene() {
  const { owner, other, folder, file, version } = await createFileScene({ name: "letter.txt", text: "Dear customer," });
  const clients = await createFolder(owner, folder.id, "Clients");
  const acme = await createFolder(owner, clients.id, "ACME");
  return { owner, other, folder, clients, acme, file, version };
}

describe("POST /template/file", () => {
  it("makes a template of a file in its folder, sharing the version's blob (201)", async () => {
    const { owner, folder, version } = await scene();
    const res = await make(owner.token, { file_id: version.id, description: " The usual letter " });
    expect(res.status, res.text).toBe(201);
    const template = templateResponse.strict().parse(res.body);
    expect(template).toMatchObject({ name: "letter.txt", description: "The usual letter", parent_id: folder.id, size: 14, can_edit: true });
    expect(template.file_type).toBeUndefined();
    const db = await getDb();
    const [row] = await db.select().from(fileTemplates).where(eq(fileTemplates.id, template.id));
    expect(row).toMatchObject({ blobId: version.blobId, md5: version.md5, sourceVersionId: version.id, ownerId: owner.id });
    expect(await latestLog("file_template", template.id)).toMatchObject({ type: "ADMLLOG_INSERT", object: "letter.txt" });
  });

  it("gives file_type and the source's thumb_token to callers who may read the source", async () => {
    const owner = await createTestUser();
    const { version } = await uploadBytes(owner, owner.privateRootId!, "logo.png", await makePng(40, 20), "image/png");
    const template = await makeTemplate(owner, { file_id: version.id, name: "Logo.png" });
    expect(template).toMatchObject({ name: "Logo.png", file_type: "image", thumb_token: expect.any(String) });
    const admin = await createAdmin();
    const platform = await makeTemplate(admin, { file_id: version.id, parent_id: 0 });
    const stranger = await createTestUser();
    const seen = (await read(stranger.token, platform.id)).body;
    expect(seen).toMatchObject({ file_type: "image", parent_id: 0, can_edit: false });
    expect(seen).not.toHaveProperty("thumb_token");
  });

  it("offers platform-wide templates (parent_id 0) for administrators only, and folder ones where the caller may write", async () => {
    const { owner, other, folder, acme, version } = await scene();
    expectError(await make(owner.token, { file_id: version.id, parent_id: 0 }), 403, "forbidden");
    const admin = await createAdmin();
    expect((await makeTemplate(admin, { file_id: version.id, parent_id: 0 })).parent_id).toBe(0);
    expect((await makeTemplate(owner, { file_id: version.id, parent_id: acme.id })).parent_id).toBe(acme.id);
    // Another user who may read and download the file, but write nowhere there.
    await grantRight(folder.id, other.id, allRightsBut("write"));
    expectError(await make(other.token, { file_id: version.id }), 403, "forbidden");
    expect((await makeTemplate(other, { file_id: version.id, parent_id: other.privateRootId })).parent_id).toBe(other.privateRootId);
  });

  it("refuses a file the caller may not read or download, and bad input", async () => {
    const { owner, other, folder, version } = await scene();
    expectError(await make(other.token, { file_id: version.id, parent_id: other.privateRootId }), 403);
    await grantRight(folder.id, other.id, allRightsBut("download"));
    expectError(await make(other.token, { file_id: version.id, parent_id: other.privateRootId }), 403, "forbidden");
    expectError(await make(owner.token, { file_id: 2_000_000_000 }), 404, "not_found");
    expectError(await make(owner.token, { file_id: version.id, name: "a/b" }), 400, "invalid_name");
    expectError(await make(owner.token, { file_id: "x" }), 400, "invalid_request");
    expectError(await make(owner.token, { file_id: version.id, parent_id: -1 }), 400, "invalid_request");
    expectError(await make(owner.token, { file_id: version.id, parent_id: other.privateRootId }), 404, "not_found");
    await expectAuthRequired(createRoute.POST, { method: "POST", path: "/api/template/file", body: { file_id: version.id } });
  });
});

describe("GET /template/files/(folderId)", () => {
  it("lists the platform's templates and those of the folder and its ancestors, not of other folders", async () => {
    const { owner, other, folder, clients, acme, version } = await scene();
    const [top, mid, deep] = [
      await makeTemplate(owner, { file_id: version.id, name: `${unique("a")}.txt` }),
      await makeTemplate(owner, { file_id: version.id, name: `${unique("b")}.txt`, parent_id: clients.id }),
      await makeTemplate(owner, { file_id: version.id, name: `${unique("c")}.txt`, parent_id: acme.id }),
    ];
    const admin = await createAdmin();
    const platform = await makeTemplate(admin, { file_id: version.id, parent_id: 0, name: `${unique("p")}.txt` });
    const ids = async (folderId: number, token = owner.token) => {
      const res = await list(token, folderId, { nb_objects: 1000 });
      expect(res.status, res.text).toBe(200);
      return res.body.objects.map((t: { id: number }) => t.id) as number[];
    };
    const atAcme = await ids(acme.id);
    expect(atAcme).toEqual(expect.arrayContaining([top.id, mid.id, deep.id, platform.id]));
    const atClients = await ids(clients.id);
    expect(atClients).toEqual(expect.arrayContaining([top.id, mid.id, platform.id]));
    expect(atClients).not.toContain(deep.id);
    const atTop = await ids(folder.id);
    expect(atTop).not.toContain(mid.id);
    // Elsewhere: the platform's only.
    const elsewhere = await ids(other.privateRootId!, other.token);
    expect(elsewhere).toContain(platform.id);
    expect(elsewhere).not.toContain(top.id);
    // Someone who cannot browse the folder: 404; with browse: the list.
    expectError(await list(other.token, acme.id), 404, "not_found");
    await grantRight(folder.id, other.id, { browse: true });
    expect(await ids(acme.id, other.token)).toEqual(expect.arrayContaining([top.id, mid.id, deep.id]));
    expectError(await list(owner.token, acme.id, { nb_objects: -1 }), 400, "invalid_request");
    await expectAuthRequired(listRoute.GET, { path: `/api/template/files/${acme.id}`, params: { folderId: String(acme.id) } });
  });
});

describe("POST /template/file/copy", () => {
  it("creates a file sharing the template's blob; a name taken gets a numbered name", async () => {
    const { owner, folder, acme, version } = await scene();
    const template = await makeTemplate(owner, { file_id: version.id, name: "Letter model.txt" });
    const db = await getDb();
    const [{ n: blobsBefore }] = await db.select({ n: sql<number>`count(*)::int` }).from(blobs).where(eq(blobs.id, version.blobId!));
    const res = await copy(owner.token, { template_id: template.id, parent_id: acme.id, name: "Letter to ACME.txt" });
    expect(res.status, res.text).toBe(201);
    const created = fileResponse.parse(res.body);
    expect(created).toMatchObject({ name: "Letter to ACME.txt", parent_id: acme.id, size: 14, hash: md5(Buffer.from("Dear customer,")) });
    const [made] = await filesNamed(acme.id, "Letter to ACME.txt");
    expect(made.versions[0].blobId).toBe(version.blobId);
    expect(blobsBefore).toBe(1);
    // Default name: the template's; again: numbered, never a new version.
    const first = await copy(owner.token, { template_id: template.id, parent_id: folder.id });
    expect(first.body.name).toBe("Letter model.txt");
    const second = await copy(owner.token, { template_id: template.id, parent_id: folder.id });
    expect(second.status).toBe(201);
    expect(second.body.name).toBe("Letter model (2).txt");
    expect((await filesNamed(folder.id, "Letter model.txt"))[0].versions).toHaveLength(1);
    const bytes = await getBlobStore().read(made.versions[0].blobId!);
    const chunks: Buffer[] = [];
    for await (const chunk of bytes) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe("Dear customer,");
  });

  it("needs the write right in the destination and a template offered there", async () => {
    const { owner, other, folder, clients, acme, version } = await scene();
    const deep = await makeTemplate(owner, { file_id: version.id, parent_id: acme.id });
    // Offered in ACME, not in Clients above it.
    expectError(await copy(owner.token, { template_id: deep.id, parent_id: clients.id, name: "x.txt" }), 404, "template_not_found");
    // Another user's folder template, used in their own space: unknown to them.
    expectError(await copy(other.token, { template_id: deep.id, parent_id: other.privateRootId, name: "x.txt" }), 404, "template_not_found");
    await grantRight(folder.id, other.id, allRightsBut("write"));
    expectError(await copy(other.token, { template_id: deep.id, parent_id: acme.id, name: "x.txt" }), 403, "forbidden");
    await grantRight(folder.id, other.id, { write: true });
    expect((await copy(other.token, { template_id: deep.id, parent_id: acme.id, name: "from-guest.txt" })).status).toBe(201);
    expectError(await copy(owner.token, { template_id: deep.id, parent_id: acme.id, name: "../x" }), 400, "invalid_name");
    expectError(await copy(owner.token, { template_id: deep.id }), 400, "invalid_request");
    expectError(await copy(owner.token, { template_id: 2_000_000_000, parent_id: acme.id }), 404, "template_not_found");
    await expectAuthRequired(copyRoute.POST, { method: "POST", path: "/api/template/file/copy", body: { template_id: deep.id, parent_id: acme.id } });
  });
});

describe("GET, PUT and DELETE /template/file/(id)", () => {
  it("lets those who may write in its folder rename and describe it; others are refused", async () => {
    const { owner, other, folder, version } = await scene();
    const template = await makeTemplate(owner, { file_id: version.id });
    expectError(await read(other.token, template.id), 404, "template_not_found");
    expectError(await update(other.token, template.id, { name: "x.txt" }), 404, "template_not_found");
    await grantRight(folder.id, other.id, allRightsBut("write"));
    expect((await read(other.token, template.id)).body).toMatchObject({ id: template.id, can_edit: false });
    expectError(await update(other.token, template.id, { name: "x.txt" }), 403, "forbidden");
    const res = await update(owner.token, template.id, { name: "Renamed.txt", description: "New text" });
    expect(res.status, res.text).toBe(200);
    expect(templateResponse.strict().parse(res.body)).toMatchObject({ name: "Renamed.txt", description: "New text" });
    expectError(await update(owner.token, template.id, { name: "" }), 400, "invalid_name");
    expectError(await update(owner.token, template.id, { description: 5 }), 400, "invalid_request");
    await expectAuthRequired(oneRoute.PUT, { ...one(template.id), method: "PUT", body: { name: "x.txt" } });
    await expectAuthRequired(oneRoute.GET, one(template.id));
  });

  it("keeps platform-wide templates for administrators to change", async () => {
    const { owner, version } = await scene();
    const admin = await createAdmin();
    const platform = await makeTemplate(admin, { file_id: version.id, parent_id: 0 });
    expectError(await update(owner.token, platform.id, { name: "mine.txt" }), 403, "forbidden");
    expectError(await remove(owner.token, platform.id), 403, "forbidden");
    expect((await update(admin.token, platform.id, { name: "Official.txt" })).body.name).toBe("Official.txt");
    expect((await remove(admin.token, platform.id)).status).toBe(204);
  });

  it("deletes it; files made from it keep their content, and its blob outlives the source while it exists", async () => {
    const { owner, other, folder, file, version } = await scene();
    const template = await makeTemplate(owner, { file_id: version.id });
    const made = await copy(owner.token, { template_id: template.id, parent_id: folder.id, name: "made.txt" });
    // The source file goes for good: the template still holds the blob.
    const db = await getDb();
    await db.delete(files).where(eq(files.id, file.id));
    await db.update(blobs).set({ createdAt: new Date(Date.now() - 3 * 3600_000) }).where(eq(blobs.id, version.blobId!));
    await collectBlobs(db);
    expect(await blobExists(version.blobId!)).toBe(true);
    expect((await read(owner.token, template.id)).body).not.toHaveProperty("thumb_token");

    expectError(await remove(other.token, template.id), 404, "template_not_found");
    await grantRight(folder.id, other.id, allRightsBut("write"));
    expectError(await remove(other.token, template.id), 403, "forbidden");
    await expectAuthRequired(oneRoute.DELETE, { ...one(template.id), method: "DELETE" });
    const res = await remove(owner.token, template.id);
    expect(res.status, res.text).toBe(204);
    expectError(await read(owner.token, template.id), 404, "template_not_found");
    const [kept] = await db.select().from(fileVersions).where(eq(fileVersions.id, made.body.id));
    expect(kept.blobId).toBe(version.blobId);
    expect(await latestLog("file_template", template.id)).toMatchObject({ type: "ADMLLOG_DELETE" });
  });

  it("a template of a folder in the trash is gone with it", async () => {
    const { owner, acme, version } = await scene();
    const template = await makeTemplate(owner, { file_id: version.id, parent_id: acme.id });
    const db = await getDb();
    const { folders } = await import("@/db/schema");
    await db.update(folders).set({ deletedAt: new Date() }).where(eq(folders.id, acme.id));
    expectError(await read(owner.token, template.id), 404, "template_not_found");
  });
});

describe("POST /token/template/(id)/(type) and the content it opens", () => {
  it("gives a 15-minute token, hashed at rest, that downloads the template without a session", async () => {
    const { owner, other, version } = await scene();
    const template = await makeTemplate(owner, { file_id: version.id, name: "model <b>.html" });
    const res = await tokenFor(owner.token, template.id, "download");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ token: expect.any(String) });
    const db = await getDb();
    const [stored] = await db.select().from(templateTokens).where(eq(templateTokens.tokenHash, hashToken(res.body.token)));
    expect(stored).toMatchObject({ templateId: template.id, userId: owner.id, type: "download" });
    expect(stored.expiresAt.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);

    const served = await content(template.id, { token: res.body.token });
    expect(served.status, served.text).toBe(200);
    expect(served.text).toBe("Dear customer,");
    expect(served.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(served.headers.get("content-security-policy")).toBe("sandbox");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    // By session too; the token of another template, or none, is refused.
    expect((await content(template.id, { session: owner.token })).text).toBe("Dear customer,");
    const another = await makeTemplate(owner, { file_id: version.id });
    expectError(await content(another.id, { token: res.body.token }), 403, "forbidden");
    expectError(await content(template.id, { token: "forged" }), 403, "forbidden");
    expectError(await content(template.id), 401, "unauthorized");
    expectError(await content(template.id, { session: other.token }), 404, "template_not_found");
  });

  it("refuses unknown types, templates the caller does not see, and missing tokens", async () => {
    const { owner, other, version } = await scene();
    const template = await makeTemplate(owner, { file_id: version.id });
    expectError(await tokenFor(owner.token, template.id, "edit"), 400, "invalid_request");
    expectError(await tokenFor(other.token, template.id, "preview"), 404, "template_not_found");
    // A token whose user lost the right since no longer opens anything.
    const { owner: other2, folder } = await scene();
    const guest = await createTestUser();
    const shared = await makeTemplate(other2, { file_id: (await uploadText(other2, folder.id, "model.txt", "shared model")).version.id });
    await grantRight(folder.id, guest.id, { browse: true });
    const token = (await tokenFor(guest.token, shared.id, "preview")).body.token;
    expect((await content(shared.id, { token })).text).toBe("shared model");
    await grantRight(folder.id, guest.id, { browse: false });
    expectError(await content(shared.id, { token }), 404, "template_not_found");
    await expectAuthRequired(tokenRoute.POST, { method: "POST", params: { id: String(template.id), type: "preview" } });
  });
});
