import { beforeAll, describe, expect, it } from "vitest";
import * as fileTimeline from "@/app/api/file/[fileId]/timeline/route";
import * as folderTimeline from "@/app/api/folder/[folderId]/timeline/route";
import * as createFolderRoute from "@/app/api/folder/route";
import { getDb } from "@/db";
import { createTestUser } from "../../helpers/factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired, expectRefusedFor } from "../../helpers/security";
import { prepareDownloadById } from "@/lib/server/downloads/prepare-download";

beforeAll(async () => {
  await getDb();
}, 180_000);

const UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36";

describe("GET /api/file/(fileId)/timeline", () => {
  it("lists each version newest first with its events and totals", async () => {
    const owner = await createTestUser();
    const folder = await createFolder(owner, owner.privateRootId!, "timeline");
    const first = await uploadText(owner, folder.id, "plan.txt", "v1");
    const second = await uploadText(owner, folder.id, "plan.txt", "v2");
    const db = await getDb();
    const actor = { user: owner, realUser: owner, sessionId: null };
    const info = { ip: "127.0.0.1", userAgent: UA };
    await prepareDownloadById({ db, actor, request: info }, second.version.id, false, { method: "GET", range: null, ifNoneMatch: null, ifRange: null, info });

    const res = await call(fileTimeline.GET, { token: owner.token, params: { fileId: String(first.version.id) } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((v: { id: number }) => v.id)).toEqual([second.version.id, first.version.id]);
    const [newest, oldest] = res.body;
    expect(newest).toMatchObject({ total_downloads: 1, total_annotations: 0, total_dlinks: 0, total_previews: 0 });
    expect(newest.events.map((e: { type: number }) => e.type)).toEqual([3, 0]);
    expect(newest.events[0]).toMatchObject({ owner_id: String(owner.id), env: { os_type: 1 } });
    expect(newest.events[0].env.browser).toMatch(/Chrome/);
    expect(oldest.total_downloads).toBe(0);
    expect(oldest.events.map((e: { type: number }) => e.type)).toEqual([0]);
  });

  it("answers 404 for an unknown file and 400 for a bad id", async () => {
    const user = await createTestUser();
    expectError(await call(fileTimeline.GET, { token: user.token, params: { fileId: "2147483000" } }), 404);
    expectError(await call(fileTimeline.GET, { token: user.token, params: { fileId: "abc" } }), 400, "invalid_request");
  });

  it("refuses no token, another user, and a user without the read right", async () => {
    const owner = await createTestUser();
    const folder = await createFolder(owner, owner.privateRootId!, "private");
    const { version } = await uploadText(owner, folder.id, "secret.txt", "x");
    const options = { params: { fileId: String(version.id) } };
    await expectAuthRequired(fileTimeline.GET, options);
    await expectRefusedFor((await createTestUser()).token, fileTimeline.GET, options);
    const reader = await createTestUser();
    await grantRight(folder.id, reader.id, allRightsBut("read"));
    await expectRefusedFor(reader.token, fileTimeline.GET, options);
  });
});

describe("GET /api/folder/(folderId)/timeline", () => {
  it("returns the folder with its events", async () => {
    const owner = await createTestUser();
    // Through the route, so that the creation event is recorded as in real use.
    const made = await call(createFolderRoute.POST, { method: "POST", token: owner.token, body: { name: "projects", parent_id: owner.privateRootId } });
    expect(made.status, made.text).toBe(201);
    const folder = made.body;
    const res = await call(folderTimeline.GET, { token: owner.token, params: { folderId: String(folder.id) } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: folder.id, name: "projects" });
    expect(res.body.events.map((e: { type: number }) => e.type)).toEqual([0]);
  });

  it("answers 404 for an unknown folder", async () => {
    const user = await createTestUser();
    expectError(await call(folderTimeline.GET, { token: user.token, params: { folderId: "2147483000" } }), 404);
  });

  it("refuses no token, another user (404), and a user without the read right (403)", async () => {
    const owner = await createTestUser();
    const folder = await createFolder(owner, owner.privateRootId!, "closed");
    const options = { params: { folderId: String(folder.id) } };
    await expectAuthRequired(folderTimeline.GET, options);
    await expectRefusedFor((await createTestUser()).token, folderTimeline.GET, options, 404);
    const browser = await createTestUser();
    await grantRight(folder.id, browser.id, allRightsBut("read"));
    await expectRefusedFor(browser.token, folderTimeline.GET, options, 403);
  });
});
