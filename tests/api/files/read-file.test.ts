import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as activityRoute from "@/app/api/file/activity/route";
import * as fileRoute from "@/app/api/file/[fileId]/route";
import * as versionsRoute from "@/app/api/file/[fileId]/versions/route";
import { getDb } from "@/db";
import { fileVersions, files } from "@/db/schema";
import { fileResponse } from "@/lib/contracts/files";
import { createTestUser, unique } from "../../helpers/factories";
import { createFileScene, createOwnFolder, lockAs, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";

const md5 = (text: string) => createHash("md5").update(text).digest("hex");
const read = (token: string, id: number, query: Record<string, string> = {}) =>
  call(fileRoute.GET, { path: `/api/file/${id}`, token, params: { fileId: String(id) }, query });
const versions = (token: string, id: number, query: Record<string, string> = {}) =>
  call(versionsRoute.GET, { path: `/api/file/${id}/versions`, token, params: { fileId: String(id) }, query });
const activity = (token: string, query: Record<string, string> = {}) => call(activityRoute.GET, { path: "/api/file/activity", token, query });

beforeAll(openDatabase, OPEN_TIMEOUT);

describe("GET /api/file/(fileId)", () => {
  it("answers the File with its hash, size, owner and rights", async () => {
    const { owner, folder, file, version } = await createFileScene({ text: "hello world" });
    const res = await read(owner.token, version.id);
    expect(res.status, res.text).toBe(200);
    const body = fileResponse.strict().parse(res.body);
    expect(body).toMatchObject({
      id: version.id,
      guid: file.guid,
      name: file.name,
      parent_id: folder.id,
      size: 11,
      hash: md5("hello world"),
      owner_id: String(owner.id),
      lock: null,
      can_download: true,
      can_edit: true,
      can_delete: true,
    });
    expect(body.creation).toBe(version.createdAt.toISOString());
  });

  it("drops owner and creation in light mode, adds path and nb_versions in full mode, meta on demand", async () => {
    const { owner, folder, file, version } = await createFileScene();
    const second = await uploadText(owner, folder.id, file.name, "second");
    const db = await getDb();
    await db.update(fileVersions).set({ meta: { title: "The title", pages: 3 } }).where(eq(fileVersions.id, second.version.id));

    const light = await read(owner.token, version.id, { light: "1" });
    expect(light.body).not.toHaveProperty("owner");
    expect(light.body).not.toHaveProperty("creation");
    const full = await read(owner.token, second.version.id, { full: "1" });
    expect(full.body).toMatchObject({ nb_versions: 2, path: `/${owner.privateRootId}/${folder.id}`, mime: "text/plain" });
    expect(full.body).not.toHaveProperty("meta");
    const meta = await read(owner.token, second.version.id, { meta: "1" });
    expect(meta.body.meta).toEqual({ title: "The title", pages: 3 });
  });

  it("answers the newest version with `latest`, and shows a lock", async () => {
    const { owner, other, folder, file, version } = await createFileScene();
    const second = await uploadText(owner, folder.id, file.name, "v2");
    expect((await read(owner.token, version.id)).body.id).toBe(version.id);
    const latest = await read(owner.token, version.id, { latest: "1" });
    expect(latest.body).toMatchObject({ id: second.version.id, hash: md5("v2") });
    await lockAs(other, file.id);
    const locked = await read(owner.token, version.id);
    expect(locked.body.lock).toMatchObject({ locked: true, owner_id: String(other.id), writeable: false, file: second.version.id, file_guid: file.guid });
  });

  it("lets a user with only browse read it, with their rights; refuses a user without browse (403, contract)", async () => {
    const { other, folder, version } = await createFileScene();
    await grantRight(folder.id, other.id, { browse: true });
    const res = await read(other.token, version.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ can_download: false, can_write: false, can_edit: false, can_delete: false, can_share: false });
    await grantRight(folder.id, other.id, allRightsBut("browse"));
    expectError(await read(other.token, version.id), 403, "forbidden");
  });

  it("answers 403 to another user, 404 for unknown or trashed files, 400 for a bad id", async () => {
    const { owner, other, file, version } = await createFileScene();
    expectError(await read(other.token, version.id), 403, "forbidden");
    expectError(await read(owner.token, 2_000_000_000), 404, "not_found");
    const db = await getDb();
    await db.update(files).set({ deletedAt: new Date() }).where(eq(files.id, file.id));
    expectError(await read(owner.token, version.id), 404, "not_found");
    expectError(await call(fileRoute.GET, { token: owner.token, params: { fileId: "abc" } }), 400, "invalid_request");
  });

  it("requires a valid token", async () => {
    const { version } = await createFileScene();
    await expectAuthRequired(fileRoute.GET, { params: { fileId: String(version.id) } });
  });
});

describe("GET /api/file/(fileId)/versions", () => {
  it("lists the live versions newest first, from any version id", async () => {
    const { owner, folder, file, version } = await createFileScene();
    const v2 = await uploadText(owner, folder.id, file.name, "two");
    const v3 = await uploadText(owner, folder.id, file.name, "three!");
    const db = await getDb();
    await db.update(fileVersions).set({ deletedAt: new Date() }).where(eq(fileVersions.id, v2.version.id));
    const res = await versions(owner.token, version.id, { full: "1" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((f: { id: number }) => f.id)).toEqual([v3.version.id, version.id]);
    expect(res.body.map((f: { hash: string }) => f.hash)).toEqual([md5("three!"), md5("hello")]);
    for (const f of res.body) fileResponse.parse(f);
    expect(res.body[0]).toMatchObject({ nb_versions: 2, size: 6 });
  });

  it("answers 403 to another user and 404 for an unknown file", async () => {
    const { owner, other, version } = await createFileScene();
    expectError(await versions(other.token, version.id), 403);
    expectError(await versions(owner.token, 2_000_000_000), 404, "not_found");
  });

  it("requires a valid token", async () => {
    const { version } = await createFileScene();
    await expectAuthRequired(versionsRoute.GET, { params: { fileId: String(version.id) } });
  });
});

describe("GET /api/file/activity", () => {
  it("lists the versions the caller created, newest first, with paging", async () => {
    const user = await createTestUser();
    const folder = await createOwnFolder(user);
    const a = await uploadText(user, folder.id, "a.txt", "a");
    const b = await uploadText(user, folder.id, "b.txt", "b");
    const a2 = await uploadText(user, folder.id, "a.txt", "a2");
    const res = await activity(user.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ offset_start: 0, nb_total_objects: 3, nb_objects: 3, nb_objets: 3 });
    expect(res.body.objects.map((f: { id: number }) => f.id)).toEqual([a2.version.id, b.version.id, a.version.id]);
    const page = await activity(user.token, { offset_start: "1", nb_objects: "1" });
    expect(page.body).toMatchObject({ offset_start: 1, nb_objects: 1, nb_total_objects: 3 });
    expect(page.body.objects[0].id).toBe(b.version.id);
  });

  it("with `all`, shows others' changes only in folders the caller may read", async () => {
    const owner = await createTestUser();
    const reader = await createTestUser();
    const shared = await createOwnFolder(owner);
    const browseOnly = await createOwnFolder(owner);
    const hidden = await createOwnFolder(owner);
    await grantRight(shared.id, reader.id, { read: true });
    await grantRight(browseOnly.id, reader.id, allRightsBut("read"));
    const visible = await uploadText(owner, shared.id, "seen.txt", "x");
    const notRead = await uploadText(owner, browseOnly.id, "browse.txt", "x");
    const secret = await uploadText(owner, hidden.id, "secret.txt", "x");

    const own = await activity(reader.token);
    expect(own.body.nb_total_objects).toBe(0);
    const all = await activity(reader.token, { all: "1", nb_objects: "1000" });
    expect(all.status, all.text).toBe(200);
    const ids = all.body.objects.map((f: { id: number }) => f.id);
    expect(ids).toContain(visible.version.id);
    expect(ids).not.toContain(notRead.version.id);
    expect(ids).not.toContain(secret.version.id);
    expect(all.body.nb_total_objects).toBeLessThanOrEqual(200);
  });

  it("leaves out trashed files", async () => {
    const user = await createTestUser();
    const folder = await createFolder(user, user.privateRootId!, unique("f_"));
    const gone = await uploadText(user, folder.id, "gone.txt", "x");
    const db = await getDb();
    await db.update(files).set({ deletedAt: new Date() }).where(eq(files.id, gone.file.id));
    expect((await activity(user.token)).body.nb_total_objects).toBe(0);
  });

  it("requires a valid token", async () => {
    await expectAuthRequired(activityRoute.GET, {});
  });
});
