import { beforeAll, describe, expect, it } from "vitest";
import * as folderRoute from "@/app/api/folder/[folderId]/route";
import { folderResponse } from "@/lib/contracts/folders";
import { createTestGroup, createTestUser } from "../../helpers/factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { at, createSharedScene, getFolder, names } from "./fixtures";
import { OPEN_TIMEOUT, openDatabase } from "./fixtures";

beforeAll(openDatabase, OPEN_TIMEOUT);

describe("GET /api/folder/(folderId)", () => {
  it("answers the Folder with its content, folders then files, each by name whatever the case", async () => {
    const { owner, work } = await createSharedScene();
    await createFolder(owner, work.id, "beta");
    await createFolder(owner, work.id, "Alpha");
    await uploadText(owner, work.id, "zeta.txt", "z");
    await uploadText(owner, work.id, "Delta.txt", "dd");
    await uploadText(owner, work.id, "charlie.txt", "ccc");

    const res = await getFolder(owner.token, work.id);
    expect(res.status, res.text).toBe(200);
    const body = folderResponse.parse(res.body);
    expect(body).toMatchObject({ id: work.id, name: "Work", parent_id: owner.privateRootId, owner_id: String(owner.id), can_read: true, can_share: true });
    expect(body.creation).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(names(body.content!.folders)).toEqual(["Alpha", "beta"]);
    expect(names(body.content!.files)).toEqual(["charlie.txt", "Delta.txt", "zeta.txt"]);
    expect(body.content!.files[1]).toMatchObject({ name: "Delta.txt", size: 2, parent_id: work.id, can_download: true });
    // depth 0: the children come without their own content; full-only fields are absent.
    expect(body.content!.folders[0].content).toBeUndefined();
    expect(body.size).toBeUndefined();
    expect(body.path).toBeUndefined();
  });

  it("follows the modes: light drops creation and owner, full adds counts, size, quota and paths", async () => {
    const { owner, work } = await createSharedScene();
    const sub = await createFolder(owner, work.id, "Sub");
    await createFolder(owner, sub.id, "Deep");
    await uploadText(owner, work.id, "a.txt", "12345");
    await uploadText(owner, sub.id, "b.txt", "123");

    const light = folderResponse.parse((await getFolder(owner.token, work.id, { light: 1 })).body);
    for (const key of ["creation", "modification", "owner", "owner_id"]) expect(light).not.toHaveProperty(key);
    expect(light.content!.files[0]).not.toHaveProperty("owner");

    const full = folderResponse.parse((await getFolder(owner.token, work.id, { full: 1 })).body);
    expect(full).toMatchObject({
      size: 8,
      nb_d_folders: 1,
      nb_d_files: 1,
      nb_folders: 2,
      nb_files: 2,
      quota: -1,
      purge_frequency: 0,
      path: `/${owner.privateRootId}`,
      path_name: "/Private",
      can_admin_rights: true,
    });
    expect(full.content!.folders[0]).toMatchObject({ name: "Sub", nb_d_files: 1, size: 3, path: `/${owner.privateRootId}/${work.id}`, path_name: "/Private/Work" });
  });

  it("lists `depth` more levels, the whole tree with -1, and applies `filter`", async () => {
    const { owner, work } = await createSharedScene();
    const a = await createFolder(owner, work.id, "A");
    const b = await createFolder(owner, a.id, "B");
    await createFolder(owner, b.id, "C");
    await uploadText(owner, work.id, "top.txt", "t");
    await uploadText(owner, a.id, "in-a.txt", "a");

    const one = folderResponse.parse((await getFolder(owner.token, work.id, { depth: 1 })).body);
    const aNode = one.content!.folders[0];
    expect(names(aNode.content!.folders)).toEqual(["B"]);
    expect(names(aNode.content!.files)).toEqual(["in-a.txt"]);
    expect(aNode.content!.folders[0].content).toBeUndefined();

    const all = folderResponse.parse((await getFolder(owner.token, work.id, { depth: -1 })).body);
    expect(names(all.content!.folders[0].content!.folders[0].content!.folders)).toEqual(["C"]);
    expect(all.content!.folders[0].content!.folders[0].content!.folders[0].content).toEqual({ folders: [], files: [] });

    const foldersOnly = folderResponse.parse((await getFolder(owner.token, work.id, { depth: -1, filter: 1 })).body);
    expect(foldersOnly.content!.files).toEqual([]);
    expect(foldersOnly.content!.folders[0].content!.files).toEqual([]);
    expect(names(foldersOnly.content!.folders[0].content!.folders)).toEqual(["B"]);

    const filesOnly = folderResponse.parse((await getFolder(owner.token, work.id, { depth: -1, filter: 2 })).body);
    expect(filesOnly.content).toEqual({ folders: [], files: [expect.objectContaining({ name: "top.txt" })] });
  });

  it("pages the first level with offset_start and nb_objects across folders then files, with content_total", async () => {
    const { owner, work } = await createSharedScene();
    for (const n of ["f1", "f2"]) await createFolder(owner, work.id, n);
    for (const n of ["a.txt", "b.txt", "c.txt"]) await uploadText(owner, work.id, n, n);

    const first = folderResponse.parse((await getFolder(owner.token, work.id, { nb_objects: 3 })).body);
    expect(first.content_total).toBe(5);
    expect(names(first.content!.folders)).toEqual(["f1", "f2"]);
    expect(names(first.content!.files)).toEqual(["a.txt"]);
    const second = folderResponse.parse((await getFolder(owner.token, work.id, { offset_start: 3, nb_objects: 3 })).body);
    expect(second.content!.folders).toEqual([]);
    expect(names(second.content!.files)).toEqual(["b.txt", "c.txt"]);
    const beyond = folderResponse.parse((await getFolder(owner.token, work.id, { offset_start: 10 })).body);
    expect(beyond.content).toEqual({ folders: [], files: [] });
    expect(beyond.content_total).toBe(5);
    expect((await getFolder(owner.token, work.id)).body.content_total).toBeUndefined();
    expectError(await getFolder(owner.token, work.id, { nb_objects: -1 }), 400, "invalid_request");
  });

  it("gives a guest their rights, files only with read, and hides folders with browse=false", async () => {
    const { owner, guest, work } = await createSharedScene();
    const open = await createFolder(owner, work.id, "Open");
    const closed = await createFolder(owner, work.id, "Closed");
    await uploadText(owner, work.id, "doc.txt", "doc");
    await grantRight(work.id, guest.id, { read: true, download: true });
    await grantRight(closed.id, guest.id, { browse: false });

    const res = await getFolder(guest.token, work.id, { full: 1 });
    expect(res.status, res.text).toBe(200);
    const body = folderResponse.parse(res.body);
    expect(body).toMatchObject({ can_read: true, can_download: true, can_write: false, can_delete: false, can_share: false, can_admin_rights: false });
    // path_name never names the owner's private root, which the guest cannot browse.
    expect(body.path_name).toBe("/");
    expect(names(body.content!.folders)).toEqual(["Open"]);
    expect(names(body.content!.files)).toEqual(["doc.txt"]);
    expect(body.content!.files[0]).toMatchObject({ can_download: true, can_edit: false });
    expectError(await getFolder(guest.token, closed.id), 404, "not_found");
    expect((await getFolder(guest.token, open.id)).status).toBe(200);

    // Browse alone shows the folder and the subfolders it may browse, never files.
    await grantRight(work.id, guest.id, { browse: true });
    const browseOnly = folderResponse.parse((await getFolder(guest.token, work.id)).body);
    expect(browseOnly.can_read).toBe(false);
    expect(names(browseOnly.content!.folders)).toEqual(["Open"]);
    expect(browseOnly.content!.files).toEqual([]);
  });

  it("applies the nearest right per target, adds group rights, and lets a nearer browse=false win", async () => {
    const { owner, guest, work } = await createSharedScene();
    const sub = await createFolder(owner, work.id, "Sub");
    const deep = await createFolder(owner, sub.id, "Deep");
    await grantRight(work.id, guest.id, { read: true, write: true });
    await grantRight(sub.id, guest.id, { read: true });
    expect((await getFolder(guest.token, work.id)).body.can_write).toBe(true);
    expect((await getFolder(guest.token, sub.id)).body.can_write).toBe(false);
    expect((await getFolder(guest.token, deep.id)).body).toMatchObject({ can_read: true, can_write: false });

    const member = await createTestUser();
    const group = await createTestGroup({ members: [member.id] });
    expectError(await getFolder(member.token, deep.id), 404);
    await grantRight(work.id, group.id, { read: true, edit: true });
    expect((await getFolder(member.token, deep.id)).body).toMatchObject({ can_read: true, can_edit: true, can_write: false });
    // The member's own browse=false on Sub removes their personal path, but the group's right still applies.
    await grantRight(sub.id, member.id, { browse: false });
    expect((await getFolder(member.token, sub.id)).status).toBe(200);
    await grantRight(sub.id, group.id, { browse: false });
    expectError(await getFolder(member.token, sub.id), 404);
    expectError(await getFolder(member.token, deep.id), 404);
  });

  it("answers 404 to another user and for unknown or trashed folders, 400 for bad parameters", async () => {
    const { owner, guest, work } = await createSharedScene();
    expectError(await getFolder(guest.token, work.id), 404, "not_found");
    expectError(await getFolder(owner.token, 2_000_000_000), 404, "not_found");
    expectError(await call(folderRoute.GET, { params: { folderId: "abc" }, token: owner.token }), 400, "invalid_request");
    expectError(await getFolder(owner.token, work.id, { depth: -2 }), 400, "invalid_request");
    expectError(await getFolder(owner.token, work.id, { filter: 4 }), 400, "invalid_request");
  });

  it("requires a valid token", async () => {
    const { work } = await createSharedScene();
    await expectAuthRequired(folderRoute.GET, at(work.id));
  });

  it("answers 405 for POST on a folder", async () => {
    const { owner, work } = await createSharedScene();
    expectError(await call(folderRoute.POST, { ...at(work.id), method: "POST", token: owner.token, body: {} }), 405);
  });

  it("lets a user lacking only read see the folder but not its files", async () => {
    const { owner, guest, work } = await createSharedScene();
    await uploadText(owner, work.id, "secret.txt", "s");
    await grantRight(work.id, guest.id, allRightsBut("read"));
    const body = folderResponse.parse((await getFolder(guest.token, work.id)).body);
    expect(body.can_read).toBe(false);
    expect(body.content!.files).toEqual([]);
  });
});
