import { and, desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as oneRoute from "@/app/api/annotation/[annotationId]/route";
import * as createRoute from "@/app/api/annotation/route";
import * as targetRoute from "@/app/api/annotations/[targetId]/[type]/route";
import * as allRoute from "@/app/api/annotations/all/route";
import { getDb } from "@/db";
import { annotations, events } from "@/db/schema";
import { annotationResponse } from "@/lib/contracts/annotations";
import { countAnnotations } from "@/lib/server/annotations/count-annotations";
import { createTestUser, type TestUser } from "../../helpers/factories";
import { createFileScene, latestLog, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { allRightsBut, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";

beforeAll(openDatabase, OPEN_TIMEOUT);

type Target = { target_id: number; target_type: "file" | "folder" };

const post = (token: string, body: unknown) => call(createRoute.POST, { method: "POST", token, body });
const read = (token: string, id: number) => call(oneRoute.GET, { method: "GET", token, params: { annotationId: String(id) } });
const edit = (token: string, id: number, text: unknown) => call(oneRoute.PUT, { method: "PUT", token, params: { annotationId: String(id) }, body: { text } });
const remove = (token: string, id: number) => call(oneRoute.DELETE, { method: "DELETE", token, params: { annotationId: String(id) } });
const listFor = (token: string, t: Target, query: Record<string, string> = {}) =>
  call(targetRoute.GET, { method: "GET", token, params: { targetId: String(t.target_id), type: t.target_type }, query });
const recent = (token: string, query: Record<string, string> = {}) => call(allRoute.GET, { method: "GET", token, query });

/** owner's folder with a file; `reader` may read it (no delete), `stranger` has nothing. */
async function scene() {
  const { owner, other: reader, folder, file, version } = await createFileScene();
  await grantRight(folder.id, reader.id, allRightsBut("delete"));
  const stranger = await createTestUser();
  const onFile: Target = { target_id: version.id, target_type: "file" };
  const onFolder: Target = { target_id: folder.id, target_type: "folder" };
  return { owner, reader, stranger, folder, file, version, onFile, onFolder };
}

async function annotate(user: TestUser, target: Target, text = "a note", conversation?: number) {
  const res = await post(user.token, { ...target, text, conversation });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number };
}

const stored = async (id: number) => (await (await getDb()).select().from(annotations).where(eq(annotations.id, id)))[0];

describe("POST /annotation", () => {
  it("annotates a file and a folder, logs it and records a type 1 event", async () => {
    const { reader, file, version, folder, onFile, onFolder } = await scene();
    const res = await post(reader.token, { ...onFile, text: "  looks good  " });
    expect(res.status, res.text).toBe(201);
    expect(annotationResponse.parse(res.body)).toMatchObject({ target_id: version.id, target_type: "file", text: "looks good", owner_id: String(reader.id), conversation: null });
    expect(await stored(res.body.id)).toMatchObject({ targetType: "file", targetId: file.id, authorId: reader.id });
    expect((await latestLog("annotation", res.body.id))?.type).toBe("ADMLLOG_INSERT");
    const db = await getDb();
    const [event] = await db.select().from(events).where(and(eq(events.targetType, "file"), eq(events.targetId, file.id), eq(events.type, 1))).orderBy(desc(events.id)).limit(1);
    expect(event).toMatchObject({ actorId: reader.id, versionId: version.id });

    const onDir = await post(reader.token, { ...onFolder, text: "folder note" });
    expect(onDir.status).toBe(201);
    expect(onDir.body).toMatchObject({ target_id: folder.id, target_type: "folder" });
  });

  it("accepts a reply on the same target and refuses one on another target (400)", async () => {
    const { reader, owner, onFile, onFolder } = await scene();
    const first = await annotate(owner, onFile);
    const reply = await post(reader.token, { ...onFile, text: "reply", conversation: first.id });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.conversation).toBe(first.id);
    expectError(await post(reader.token, { ...onFolder, text: "misplaced", conversation: first.id }), 400, "invalid_request");
    expectError(await post(reader.token, { ...onFile, text: "nothing", conversation: 2_000_000_000 }), 400, "invalid_request");
  });

  it("refuses invalid bodies (400) and unknown targets (404)", async () => {
    const { reader, onFile } = await scene();
    expectError(await post(reader.token, { ...onFile, text: "   " }), 400, "invalid_request");
    expectError(await post(reader.token, { target_id: onFile.target_id, target_type: "user", text: "x" }), 400, "invalid_request");
    expectError(await post(reader.token, { target_type: "file", text: "x" }), 400, "invalid_request");
    expectError(await post(reader.token, { target_id: 2_000_000_000, target_type: "file", text: "x" }), 404, "not_found");
    expectError(await post(reader.token, { target_id: 2_000_000_000, target_type: "folder", text: "x" }), 404, "not_found");
  });

  it("needs a token, and the read right on the target", async () => {
    const { owner, stranger, folder, onFile, onFolder } = await scene();
    await expectAuthRequired(createRoute.POST, { method: "POST", body: { ...onFile, text: "x" } });
    expectError(await post(stranger.token, { ...onFolder, text: "x" }), 404);
    expectError(await post(stranger.token, { ...onFile, text: "x" }), 403);
    const noRead = await createTestUser();
    await grantRight(folder.id, noRead.id, allRightsBut("read"));
    expectError(await post(noRead.token, { ...onFile, text: "x" }), 403, "forbidden");
    expectError(await post(noRead.token, { ...onFolder, text: "x" }), 403, "forbidden");
    expect(owner.id).toBeGreaterThan(0);
  });
});

describe("GET /annotation/(id)", () => {
  it("returns the annotation with the current version id of its file", async () => {
    const { owner, reader, folder, file, onFile } = await scene();
    const note = await annotate(reader, onFile, "first");
    const v2 = await uploadText(owner, folder.id, file.name, "second version");
    const res = await read(owner.token, note.id);
    expect(res.status, res.text).toBe(200);
    expect(annotationResponse.parse(res.body)).toMatchObject({ id: note.id, text: "first", target_id: v2.version.id, owner_id: String(reader.id) });
  });

  it("answers 404 for unknown or deleted annotations, 400 for a bad id", async () => {
    const { reader, onFile } = await scene();
    expectError(await read(reader.token, 2_000_000_000), 404, "not_found");
    const note = await annotate(reader, onFile);
    expect((await remove(reader.token, note.id)).status).toBe(204);
    expectError(await read(reader.token, note.id), 404, "not_found");
    expectError(await call(oneRoute.GET, { method: "GET", token: reader.token, params: { annotationId: "abc" } }), 400, "invalid_request");
  });

  it("needs a token and the read right", async () => {
    const { reader, stranger, folder, onFile, onFolder } = await scene();
    const onF = await annotate(reader, onFile);
    const onD = await annotate(reader, onFolder);
    await expectAuthRequired(oneRoute.GET, { method: "GET", params: { annotationId: String(onF.id) } });
    expectError(await read(stranger.token, onD.id), 404);
    expectError(await read(stranger.token, onF.id), 403);
    const noRead = await createTestUser();
    await grantRight(folder.id, noRead.id, allRightsBut("read"));
    expectError(await read(noRead.token, onF.id), 403, "forbidden");
    expectError(await read(noRead.token, onD.id), 403, "forbidden");
  });
});

describe("PUT /annotation/(id)", () => {
  it("lets the author change the text and logs it", async () => {
    const { reader, onFile } = await scene();
    const note = await annotate(reader, onFile, "before");
    const res = await edit(reader.token, note.id, "after");
    expect(res.status, res.text).toBe(200);
    expect(res.body.text).toBe("after");
    expect((await stored(note.id)).text).toBe("after");
    expect((await latestLog("annotation", note.id))?.type).toBe("ADMLLOG_UPDATE");
  });

  it("refuses an empty text (400) and an unknown annotation (404)", async () => {
    const { reader, onFile } = await scene();
    const note = await annotate(reader, onFile);
    expectError(await edit(reader.token, note.id, ""), 400, "invalid_request");
    expectError(await edit(reader.token, note.id, 12), 400, "invalid_request");
    expectError(await edit(reader.token, 2_000_000_000, "x"), 404, "not_found");
  });

  it("needs a token; others, even the folder owner, get 403; strangers 404/403", async () => {
    const { owner, reader, stranger, onFile, onFolder } = await scene();
    const note = await annotate(reader, onFile, "mine");
    const onD = await annotate(reader, onFolder, "mine too");
    await expectAuthRequired(oneRoute.PUT, { method: "PUT", params: { annotationId: String(note.id) }, body: { text: "x" } });
    expectError(await edit(owner.token, note.id, "hijack"), 403, "forbidden");
    expectError(await edit(stranger.token, note.id, "hijack"), 403);
    expectError(await edit(stranger.token, onD.id, "hijack"), 404);
    expect((await stored(note.id)).text).toBe("mine");
  });

  it("refuses the author once they lost the read right", async () => {
    const { reader, folder, onFile } = await scene();
    const note = await annotate(reader, onFile, "mine");
    await grantRight(folder.id, reader.id, allRightsBut("read"));
    expectError(await edit(reader.token, note.id, "changed"), 403, "forbidden");
  });
});

describe("DELETE /annotation/(id)", () => {
  it("lets the author delete, and someone with the delete right delete another's note", async () => {
    const { owner, reader, onFile } = await scene();
    const mine = await annotate(reader, onFile);
    expect((await remove(reader.token, mine.id)).status).toBe(204);
    expect((await stored(mine.id)).deletedAt).not.toBeNull();
    expect((await latestLog("annotation", mine.id))?.type).toBe("ADMLLOG_DELETE");
    const theirs = await annotate(reader, onFile);
    expect((await remove(owner.token, theirs.id)).status).toBe(204);
    expect((await stored(theirs.id)).deletedAt).not.toBeNull();
  });

  it("answers 404 for an unknown or already deleted annotation", async () => {
    const { reader, onFile } = await scene();
    expectError(await remove(reader.token, 2_000_000_000), 404, "not_found");
    const note = await annotate(reader, onFile);
    await remove(reader.token, note.id);
    expectError(await remove(reader.token, note.id), 404, "not_found");
  });

  it("needs a token; a reader without the delete right gets 403 on another's note; strangers 404/403", async () => {
    const { owner, reader, stranger, folder, onFile, onFolder } = await scene();
    const ownerNote = await annotate(owner, onFile);
    const ownerDir = await annotate(owner, onFolder);
    await expectAuthRequired(oneRoute.DELETE, { method: "DELETE", params: { annotationId: String(ownerNote.id) } });
    expectError(await remove(reader.token, ownerNote.id), 403, "forbidden");
    expectError(await remove(stranger.token, ownerNote.id), 403);
    expectError(await remove(stranger.token, ownerDir.id), 404);
    const noRead = await createTestUser();
    await grantRight(folder.id, noRead.id, allRightsBut("read"));
    expectError(await remove(noRead.token, ownerNote.id), 403, "forbidden");
    expect((await stored(ownerNote.id)).deletedAt).toBeNull();
  });
});

describe("GET /annotations/(targetId)/(type)", () => {
  it("lists a target's annotations oldest first in the envelope, with paging, and marks them read", async () => {
    const { owner, reader, file, onFile, onFolder } = await scene();
    const a = await annotate(owner, onFile, "one");
    const b = await annotate(reader, onFile, "two", a.id);
    await annotate(owner, onFolder, "elsewhere");
    const db = await getDb();
    expect((await countAnnotations(db, reader.id, "file", [file.id])).get(file.id)).toEqual({ total: 2, unread: 1 });

    const res = await listFor(reader.token, onFile);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ offset_start: 0, nb_objects: 2, nb_objets: 2, nb_total_objects: 2 });
    expect(res.body.objects.map((o: { id: number }) => o.id)).toEqual([a.id, b.id]);
    expect((await countAnnotations(db, reader.id, "file", [file.id])).get(file.id)).toEqual({ total: 2, unread: 0 });

    const second = await listFor(reader.token, onFile, { offset_start: "1", nb_objects: "1" });
    expect(second.body).toMatchObject({ offset_start: 1, nb_objects: 1, nb_total_objects: 2 });
    expect(second.body.objects[0].id).toBe(b.id);
  });

  it("refuses a bad type (400) and unknown targets (404)", async () => {
    const { reader, onFile } = await scene();
    expectError(await call(targetRoute.GET, { method: "GET", token: reader.token, params: { targetId: String(onFile.target_id), type: "user" } }), 400, "invalid_request");
    expectError(await listFor(reader.token, { target_id: 2_000_000_000, target_type: "file" }), 404, "not_found");
    expectError(await listFor(reader.token, { target_id: 2_000_000_000, target_type: "folder" }), 404, "not_found");
  });

  it("needs a token and the read right", async () => {
    const { stranger, folder, onFile, onFolder } = await scene();
    await expectAuthRequired(targetRoute.GET, { method: "GET", params: { targetId: String(onFile.target_id), type: "file" } });
    expectError(await listFor(stranger.token, onFolder), 404);
    expectError(await listFor(stranger.token, onFile), 403);
    const noRead = await createTestUser();
    await grantRight(folder.id, noRead.id, allRightsBut("read"));
    expectError(await listFor(noRead.token, onFile), 403, "forbidden");
    expectError(await listFor(noRead.token, onFolder), 403, "forbidden");
  });
});

describe("/annotations/all", () => {
  it("lists the week's readable annotations newest first, skipping old, deleted and unreadable ones", async () => {
    const { owner, reader, onFile, onFolder } = await scene();
    const hidden = await scene();
    const a = await annotate(owner, onFile, "a");
    const b = await annotate(owner, onFolder, "b");
    const gone = await annotate(owner, onFile, "gone");
    await remove(owner.token, gone.id);
    const old = await annotate(owner, onFile, "old");
    await (await getDb()).update(annotations).set({ createdAt: new Date(Date.now() - 8 * 86_400_000) }).where(eq(annotations.id, old.id));
    const invisible = await annotate(hidden.owner, hidden.onFile, "not for reader");

    const res = await recent(reader.token, { nb_objects: "1000" });
    expect(res.status, res.text).toBe(200);
    const ids = res.body.objects.map((o: { id: number }) => o.id);
    expect(ids.indexOf(b.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    expect(ids).not.toContain(gone.id);
    expect(ids).not.toContain(old.id);
    expect(ids).not.toContain(invisible.id);
    expect(res.body.nb_total_objects).toBe(ids.length);

    const paged = await recent(reader.token, { offset_start: "1", nb_objects: "1" });
    expect(paged.body).toMatchObject({ offset_start: 1, nb_objects: 1 });
  });

  it("refuses bad paging (400) and needs a token", async () => {
    const { reader } = await scene();
    expectError(await recent(reader.token, { offset_start: "-1" }), 400, "invalid_request");
    await expectAuthRequired(allRoute.GET, { method: "GET" });
    await expectAuthRequired(allRoute.PUT, { method: "PUT" });
  });

  it("PUT marks everything read for the caller only", async () => {
    const { owner, reader, file, folder, onFile, onFolder } = await scene();
    const third = await createTestUser();
    await grantRight(folder.id, third.id, allRightsBut());
    await annotate(owner, onFile);
    await annotate(owner, onFolder);
    const db = await getDb();
    const res = await call(allRoute.PUT, { method: "PUT", token: reader.token });
    expect(res.status, res.text).toBe(204);
    expect((await countAnnotations(db, reader.id, "file", [file.id])).get(file.id)).toEqual({ total: 1, unread: 0 });
    expect((await countAnnotations(db, reader.id, "folder", [folder.id])).get(folder.id)).toEqual({ total: 1, unread: 0 });
    expect((await countAnnotations(db, third.id, "file", [file.id])).get(file.id)).toEqual({ total: 1, unread: 1 });
    await annotate(owner, onFile, "newer");
    expect((await countAnnotations(db, reader.id, "file", [file.id])).get(file.id)).toEqual({ total: 2, unread: 1 });
  });
});

describe("nb_annotations and nb_unread_annotations in full mode", () => {
  it("count a file's and a folder's annotations for the caller, unread until listed, and only when > 0", async () => {
    const { owner, reader, folder, version, onFile, onFolder } = await scene();
    const fileRoute = await import("@/app/api/file/[fileId]/route");
    const folderRoute = await import("@/app/api/folder/[folderId]/route");
    const readFile = (token: string) => call(fileRoute.GET, { token, params: { fileId: String(version.id) }, query: { full: "1" } });
    const readFolder = (token: string) => call(folderRoute.GET, { token, params: { folderId: String(folder.id) }, query: { full: "1" } });

    const before = await readFile(reader.token);
    expect(before.body.nb_annotations).toBeUndefined();
    await annotate(owner, onFile, "first");
    await annotate(owner, onFile, "second");
    await annotate(owner, onFolder, "on the folder");

    const unread = await readFile(reader.token);
    expect(unread.body).toMatchObject({ nb_annotations: 2, nb_unread_annotations: 2 });
    expect((await readFolder(reader.token)).body).toMatchObject({ nb_annotations: 1, nb_unread_annotations: 1 });
    // The author's own annotations are never unread for them.
    const mine = await readFile(owner.token);
    expect(mine.body.nb_annotations).toBe(2);
    expect(mine.body.nb_unread_annotations).toBeUndefined();

    expect((await listFor(reader.token, onFile)).status).toBe(200);
    const listed = await readFile(reader.token);
    expect(listed.body.nb_annotations).toBe(2);
    expect(listed.body.nb_unread_annotations).toBeUndefined();
  });
});
