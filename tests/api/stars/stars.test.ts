import { beforeAll, describe, expect, it } from "vitest";
import * as fileRoute from "@/app/api/file/[fileId]/route";
import * as folderRoute from "@/app/api/folder/[folderId]/route";
import * as rightRoute from "@/app/api/right/[rightId]/route";
import * as starRoute from "@/app/api/star/[type]/[id]/route";
import * as starsRoute from "@/app/api/stars/route";
import { starsResponse } from "@/lib/contracts/stars";
import { createTestUser, unique } from "../../helpers/factories";
import { createFileScene, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";

beforeAll(openDatabase, OPEN_TIMEOUT);

const starPath = (type: string, id: number) => ({ path: `/api/star/${type}/${id}`, params: { type, id: String(id) } });
const star = (token: string, type: string, id: number) => call(starRoute.PUT, { ...starPath(type, id), method: "PUT", token });
const unstar = (token: string, type: string, id: number) => call(starRoute.DELETE, { ...starPath(type, id), method: "DELETE", token });

async function listStars(token: string, query: Record<string, number> = {}) {
  const res = await call(starsRoute.GET, { path: "/api/stars", token, query });
  expect(res.status, res.text).toBe(200);
  return starsResponse.parse(res.body);
}
const keys = (list: { objects: { type: string; id: number }[] }) => list.objects.map((o) => `${o.type}:${o.id}`);

describe("PUT /star/(type)/(id) and GET /stars", () => {
  it("stars a file and a folder, idempotently, newest first, with the light object and the path", async () => {
    const { owner, folder, version, file } = await createFileScene();
    expect((await star(owner.token, "file", version.id)).status).toBe(204);
    expect((await star(owner.token, "folder", folder.id)).status).toBe(204);
    expect((await star(owner.token, "folder", folder.id)).status).toBe(204);
    const list = await listStars(owner.token);
    expect(list.nb_total_objects).toBe(2);
    expect(keys(list)).toEqual([`folder:${folder.id}`, `file:${version.id}`]);
    const [starredFolder, starredFile] = list.objects;
    expect(starredFile).toMatchObject({ name: file.name, object: { id: version.id, parent_id: folder.id, name: file.name } });
    expect(starredFile.path_crumbs.map((c) => c.id)).toEqual([...folder.path, folder.id]);
    expect(starredFolder).toMatchObject({ name: folder.name, object: { id: folder.id } });
    // Light: the contract's owner and dates are left out.
    expect(starredFolder.object).not.toHaveProperty("owner");
    expect(Date.parse(starredFolder.date)).toBeGreaterThan(Date.now() - 60_000);
    // Paging.
    const second = await listStars(owner.token, { offset_start: 1, nb_objects: 1 });
    expect([second.offset_start, second.nb_objects, second.nb_total_objects]).toEqual([1, 1, 2]);
    expect(keys(second)).toEqual([`file:${version.id}`]);
  });

  it("keeps the star on a new version and presents the current version's id", async () => {
    const { owner, folder, version, file } = await createFileScene();
    await star(owner.token, "file", version.id);
    const next = await uploadText(owner, folder.id, file.name, "second version");
    expect(next.version.id).not.toBe(version.id);
    expect(keys(await listStars(owner.token))).toEqual([`file:${next.version.id}`]);
    // Unstarring through the old version id takes the same star off.
    expect((await unstar(owner.token, "file", version.id)).status).toBe(204);
    expect((await listStars(owner.token)).nb_total_objects).toBe(0);
  });

  it("unstars idempotently, also what never was starred or does not exist", async () => {
    const { owner, folder } = await createFileScene();
    await star(owner.token, "folder", folder.id);
    expect((await unstar(owner.token, "folder", folder.id)).status).toBe(204);
    expect((await unstar(owner.token, "folder", folder.id)).status).toBe(204);
    expect((await unstar(owner.token, "file", 2_000_000_000)).status).toBe(204);
    expect((await listStars(owner.token)).objects).toEqual([]);
  });

  it("refuses what the caller cannot browse as not found, and bad paths as 400", async () => {
    const { other, folder, version } = await createFileScene();
    expectError(await star(other.token, "file", version.id), 404, "not_found");
    expectError(await star(other.token, "folder", folder.id), 404, "not_found");
    expectError(await star(other.token, "folder", 2_000_000_000), 404, "not_found");
    expectError(await star(other.token, "tag", folder.id), 400, "invalid_request");
    expectError(await star(other.token, "file", -1), 400, "invalid_request");
    expectError(await call(starRoute.PUT, { path: "/api/star/file/x%00", params: { type: "file", id: "1\u0000" }, method: "PUT", token: other.token }), 400);
  });

  it("a file needs read on its folder: browse alone is not enough to see it", async () => {
    const { owner, other, folder, version } = await createFileScene();
    await grantRight(folder.id, other.id, { browse: true });
    expectError(await star(other.token, "file", version.id), 404, "not_found");
    expect((await star(other.token, "folder", folder.id)).status).toBe(204);
    await grantRight(folder.id, other.id, allRightsBut("write", "delete"));
    expect((await star(other.token, "file", version.id)).status).toBe(204);
    expect((await listStars(other.token)).nb_total_objects).toBe(2);
    expect((await listStars(owner.token)).nb_total_objects).toBe(0);
  });

  it("leaves out what the user can no longer see: right removed, trashed", async () => {
    const { owner, other, folder, version } = await createFileScene();
    const right = await grantRight(folder.id, other.id, allRightsBut("write", "delete"));
    await star(other.token, "file", version.id);
    await star(other.token, "folder", folder.id);
    expect((await listStars(other.token)).nb_total_objects).toBe(2);
    const removed = await call(rightRoute.DELETE, { path: `/api/right/${right.id}`, params: { rightId: String(right.id) }, method: "DELETE", token: owner.token });
    expect(removed.status, removed.text).toBe(204);
    expect(await listStars(other.token)).toMatchObject({ nb_total_objects: 0, objects: [] });

    // The owner's own star on a file that goes to the trash disappears; its folder stays.
    await star(owner.token, "file", version.id);
    await star(owner.token, "folder", folder.id);
    const trashed = await call(fileRoute.DELETE, { path: `/api/file/${version.id}`, params: { fileId: String(version.id) }, method: "DELETE", token: owner.token });
    expect(trashed.status, trashed.text).toBe(200);
    expect(keys(await listStars(owner.token))).toEqual([`folder:${folder.id}`]);
  });

  it("leaves out a file whose folder went to the trash", async () => {
    const { owner, folder, version } = await createFileScene();
    const sub = await createFolder(owner, folder.id, unique("sub_"));
    const inner = await uploadText(owner, sub.id, "inner.txt", "x");
    await star(owner.token, "file", inner.version.id);
    await star(owner.token, "file", version.id);
    const trashed = await call(folderRoute.DELETE, { path: `/api/folder/${sub.id}`, params: { folderId: String(sub.id) }, method: "DELETE", token: owner.token });
    expect(trashed.status, trashed.text).toBe(200);
    expect(keys(await listStars(owner.token))).toEqual([`file:${version.id}`]);
  });

  it("never shows another user's stars, and answers 401 without a valid token", async () => {
    const { owner, folder } = await createFileScene();
    const sub = await createFolder(owner, folder.id, unique("sub_"));
    await star(owner.token, "folder", sub.id);
    const stranger = await createTestUser();
    expect((await listStars(stranger.token)).objects).toEqual([]);
    // Another user's unstar of the same folder leaves the owner's star alone.
    expect((await unstar(stranger.token, "folder", sub.id)).status).toBe(204);
    expect((await listStars(owner.token)).nb_total_objects).toBe(1);
    await expectAuthRequired(starsRoute.GET, { path: "/api/stars" });
    await expectAuthRequired(starRoute.PUT, { ...starPath("folder", sub.id), method: "PUT" });
    await expectAuthRequired(starRoute.DELETE, { ...starPath("folder", sub.id), method: "DELETE" });
  });
});
