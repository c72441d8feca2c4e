import { beforeAll, describe, expect, it } from "vitest";
import * as createAnnotationRoute from "@/app/api/annotation/route";
import * as fileTimeline from "@/app/api/file/[fileId]/timeline/route";
import * as folderTimeline from "@/app/api/folder/[folderId]/timeline/route";
import * as createFolderRoute from "@/app/api/folder/route";
import { getDb } from "@/db";
import type { User } from "@/db/schema";
import { createTestUser, type TestUser } from "../../helpers/factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired, expectRefusedFor } from "../../helpers/security";
import { prepareDownloadById } from "@/lib/server/downloads/prepare-download";

beforeAll(async () => {
  await getDb();
}, 180_000);

const UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36";

type Event = { id: number; type: number; date: string; owner_id: string; data: any; subtype?: number; extended?: Event[]; responses?: Event[] };

async function download(user: User, versionId: number) {
  const db = await getDb();
  const info = { ip: "127.0.0.1", userAgent: UA };
  await prepareDownloadById({ db, actor: { user, realUser: user, sessionId: null }, request: info }, versionId, false, { method: "GET", range: null, ifNoneMatch: null, ifRange: null, info });
}

async function annotate(user: TestUser, target: { target_id: number; target_type: "file" | "folder" }, text: string, conversation?: number): Promise<number> {
  const res = await call(createAnnotationRoute.POST, { method: "POST", token: user.token, body: { ...target, text, conversation } });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

const types = (events: Event[]) => events.map((e) => e.type);
const annotationIds = (events: Event[] = []) => events.map((e) => e.data?.id);

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

  it("groups consecutive downloads into one type 9 event and leaves a lone download alone", async () => {
    const owner = await createTestUser();
    const reader = await createTestUser();
    const folder = await createFolder(owner, owner.privateRootId!, "grouped");
    await grantRight(folder.id, reader.id, allRightsBut("delete"));
    const { version } = await uploadText(owner, folder.id, "report.txt", "v1");
    await download(owner, version.id);
    await download(reader, version.id);
    await download(owner, version.id);
    await annotate(owner, { target_id: version.id, target_type: "file" }, "downloaded thrice");
    await download(reader, version.id);

    const res = await call(fileTimeline.GET, { token: reader.token, params: { fileId: String(version.id) } });
    expect(res.status, res.text).toBe(200);
    const [only] = res.body;
    expect(only).toMatchObject({ total_downloads: 4, total_annotations: 1 });
    const events: Event[] = only.events;
    // Newest first: the lone download, the annotation that separates it, the run of three, the creation.
    expect(types(events)).toEqual([3, 1, 9, 0]);
    expect(events[0]).toMatchObject({ owner_id: String(reader.id) });
    expect(events[0]).not.toHaveProperty("extended");
    const group = events[2];
    expect(group).toMatchObject({
      subtype: 3,
      owner_id: String(owner.id),
      data: { users_count: 2, users: [{ id: String(owner.id), name: `Test ${owner.lastname}` }, { id: String(reader.id), name: `Test ${reader.lastname}` }] },
    });
    expect(group.extended!.map((e) => [e.type, e.owner_id])).toEqual([
      [3, String(owner.id)],
      [3, String(reader.id)],
      [3, String(owner.id)],
    ]);
    expect(group.id).toBe(group.extended![0].id);
    expect(group.date).toBe(group.extended![0].date);
  });

  it("nests replies under the annotation they answer, oldest first, at any depth", async () => {
    const owner = await createTestUser();
    const reader = await createTestUser();
    const folder = await createFolder(owner, owner.privateRootId!, "threads");
    await grantRight(folder.id, reader.id, allRightsBut("delete"));
    const first = await uploadText(owner, folder.id, "draft.txt", "v1");
    const onFile = { target_id: first.version.id, target_type: "file" as const };
    const question = await annotate(owner, onFile, "Is this final?");
    const answer = await annotate(reader, onFile, "Not yet", question);
    const other = await annotate(reader, onFile, "Separate remark");
    const followUp = await annotate(owner, onFile, "When then?", answer);
    const second = await uploadText(owner, folder.id, "draft.txt", "v2");
    // A reply written once a newer version exists still sits under its question.
    const late = await annotate(reader, { target_id: second.version.id, target_type: "file" }, "Now it is", question);

    const res = await call(fileTimeline.GET, { token: owner.token, params: { fileId: String(second.version.id) } });
    expect(res.status, res.text).toBe(200);
    const [newest, oldest] = res.body as { events: Event[]; total_annotations: number }[];
    expect(types(newest.events)).toEqual([0]);
    expect(newest.total_annotations).toBe(1);
    expect(oldest.total_annotations).toBe(4);
    expect(types(oldest.events)).toEqual([1, 1, 0]);
    expect(annotationIds(oldest.events)).toEqual([other, question, undefined]);
    const thread = oldest.events[1];
    expect(annotationIds(thread.responses)).toEqual([answer, late]);
    expect(thread.responses![0]).toMatchObject({ type: 1, owner_id: String(reader.id), data: { text: "Not yet", conversation: question } });
    expect(annotationIds(thread.responses![0].responses)).toEqual([followUp]);
    expect(oldest.events[0]).not.toHaveProperty("responses");
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

  it("nests replies to the folder's annotations", async () => {
    const owner = await createTestUser();
    const folder = await createFolder(owner, owner.privateRootId!, "discussed");
    const onFolder = { target_id: folder.id, target_type: "folder" as const };
    const note = await annotate(owner, onFolder, "Tidy this folder");
    const reply = await annotate(owner, onFolder, "Done", note);
    const res = await call(folderTimeline.GET, { token: owner.token, params: { folderId: String(folder.id) } });
    expect(res.status, res.text).toBe(200);
    const events: Event[] = res.body.events;
    expect(annotationIds(events)).toEqual([note]);
    expect(annotationIds(events[0].responses)).toEqual([reply]);
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
