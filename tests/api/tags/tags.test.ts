import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { tagActivities, tagLinks } from "@/db/schema";
import { tagActivityResponse, tagResponse } from "@/lib/contracts/tags";
import { createAdmin, createTestUser, latestLog, unique } from "../../helpers/factories";
import { createFileScene, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { allRightsBut, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import {
  activityRoute,
  attach,
  deleteTag,
  detach,
  elementPath,
  elementRoute,
  elementTags,
  elementTagsRoute,
  getTag,
  listed,
  listedRoute,
  listTags,
  makeTag,
  oneTagRoute,
  postCategory,
  postTag,
  putTag,
  tagActivity,
  tagPath,
  tagRoute,
  tagsRoute,
} from "./tag-helpers";

beforeAll(openDatabase, OPEN_TIMEOUT);

const ids = (list: { id: number }[]) => list.map((x) => x.id);

describe("POST /tag", () => {
  it("creates a public tag with the default colour, records activity 1 and a log entry", async () => {
    const user = await createTestUser();
    const name = unique("Urgent ");
    const res = await postTag(user.token, { name });
    expect(res.status, res.text).toBe(201);
    const tag = tagResponse.strict().parse(res.body);
    expect(tag).toEqual({ id: expect.any(Number), category_id: null, name, key: name.toLowerCase(), color: "#6b7280", owner_id: String(user.id), private: false });
    const db = await getDb();
    const activities = await db.select().from(tagActivities).where(eq(tagActivities.tagId, tag.id));
    expect(activities.map((a) => [a.type, a.actorId])).toEqual([[1, user.id]]);
    expect(await latestLog("tag", tag.id)).toMatchObject({ type: "ADMLLOG_INSERT", object: name });
  });

  it("takes its category's colour and may be private", async () => {
    const admin = await createAdmin();
    const category = await postCategory(admin.token, { name: unique("Clients "), color: "#AA3300" });
    expect(category.status, category.text).toBe(201);
    const user = await createTestUser();
    const tag = await makeTag(user.token, { category_id: category.body.id, private: true });
    expect(tag).toMatchObject({ category_id: category.body.id, color: "#aa3300", private: true });
  });

  it("refuses bad input with the contract's error body", async () => {
    const user = await createTestUser();
    expectError(await postTag(user.token, { name: "   " }), 400, "invalid_request");
    expectError(await postTag(user.token, {}), 400, "invalid_request");
    expectError(await postTag(user.token, { name: "x".repeat(101) }), 400, "invalid_request");
    expectError(await postTag(user.token, { name: "invoice\u202Efdp" }), 400, "invalid_request");
    expectError(await postTag(user.token, { name: "a\u0000b" }), 400);
    expectError(await postTag(user.token, { name: "ok", category_id: 2_000_000_000 }), 404, "not_found");
    expectError(await postTag(user.token, { name: "ok", private: "maybe" }), 400, "invalid_request");
  });

  it("keeps public names unique (case-insensitively) and private ones unique per owner", async () => {
    const [alice, bob] = [await createTestUser(), await createTestUser()];
    const name = unique("Budget ");
    await makeTag(alice.token, { name });
    expectError(await postTag(bob.token, { name: name.toUpperCase() }), 409, "conflict");
    // Private tags of the same name: one per owner, beside the public one.
    await makeTag(alice.token, { name, private: true });
    await makeTag(bob.token, { name, private: true });
    expectError(await postTag(bob.token, { name, private: true }), 409, "conflict");
  });

  it("needs a token", async () => {
    await expectAuthRequired(tagRoute.POST, { method: "POST", path: "/api/tag", body: { name: "x" } });
  });
});

describe("GET /tag/(id) and GET /tags", () => {
  it("shows public tags to everyone and private ones to their owner alone, administrators included", async () => {
    const [alice, bob, admin] = [await createTestUser(), await createTestUser(), await createAdmin()];
    const word = unique("w");
    const open = await makeTag(alice.token, { name: `${word} open` });
    const secret = await makeTag(alice.token, { name: `${word} secret`, private: true });
    const bobs = await makeTag(bob.token, { name: `${word} bob`, private: true });

    expect((await getTag(bob.token, open.id)).body).toEqual(open);
    expect((await getTag(alice.token, secret.id)).body).toEqual(secret);
    expectError(await getTag(bob.token, secret.id), 404, "not_found");
    expectError(await getTag(admin.token, secret.id), 404, "not_found");
    expectError(await getTag(bob.token, 2_000_000_000), 404, "not_found");

    const seenByAlice = await listTags(alice.token, { search: word });
    expect(seenByAlice.status, seenByAlice.text).toBe(200);
    expect(seenByAlice.body).toMatchObject({ offset_start: 0, nb_objects: 2, nb_objets: 2, nb_total_objects: 2 });
    expect(ids(seenByAlice.body.objects)).toEqual([open.id, secret.id]);
    expect(ids((await listTags(bob.token, { search: word })).body.objects)).toEqual([bobs.id, open.id]);
    expect(ids((await listTags(admin.token, { search: word })).body.objects)).toEqual([open.id]);
    // Paging.
    const second = await listTags(alice.token, { search: word, offset_start: 1, nb_objects: 1 });
    expect(second.body).toMatchObject({ offset_start: 1, nb_objects: 1, nb_total_objects: 2 });
    expect(ids(second.body.objects)).toEqual([secret.id]);
  });

  it("filters by category and refuses bad parameters", async () => {
    const [admin, user] = [await createAdmin(), await createTestUser()];
    const category = (await postCategory(admin.token, { name: unique("Cat ") })).body;
    const inside = await makeTag(user.token, { category_id: category.id });
    await makeTag(user.token);
    expect(ids((await listTags(user.token, { category_id: category.id })).body.objects)).toEqual([inside.id]);
    expectError(await listTags(user.token, { nb_objects: -1 }), 400, "invalid_request");
    expectError(await listTags(user.token, { category_id: "abc" }), 400, "invalid_request");
    expectError(await getTag(user.token, "x" as unknown as number), 400, "invalid_request");
  });

  it("need a token", async () => {
    await expectAuthRequired(tagsRoute.GET, { path: "/api/tags" });
    await expectAuthRequired(oneTagRoute.GET, tagPath(1));
  });
});

describe("PUT /tag/(id)", () => {
  it("renames for its owner (activity 2 with both names) and changes the category", async () => {
    const [admin, user] = [await createAdmin(), await createTestUser()];
    const category = (await postCategory(admin.token, { name: unique("Cat "), color: "#112233" })).body;
    const tag = await makeTag(user.token, { name: unique("Old ") });
    const name = unique("New ");
    const res = await putTag(user.token, tag.id, { name, category_id: category.id });
    expect(res.status, res.text).toBe(200);
    expect(tagResponse.strict().parse(res.body)).toMatchObject({ name, key: name.toLowerCase(), category_id: category.id, color: "#112233" });
    const activity = await tagActivity(user.token, tag.id);
    expect(activity.body.objects.map((a: { type: number }) => a.type)).toEqual([2, 1]);
    expect(activity.body.objects[0]).toMatchObject({ old_name: tag.name, name });
    // category_id null takes it out of the category; PATCH is a synonym.
    const patched = await call(oneTagRoute.PATCH, { ...tagPath(tag.id), method: "PATCH", token: user.token, body: { category_id: null } });
    expect(patched.body).toMatchObject({ category_id: null, color: "#6b7280" });
  });

  it("refuses another user (403 on a public tag, 404 on a private one) but lets an administrator change a public tag", async () => {
    const [owner, other, admin] = [await createTestUser(), await createTestUser(), await createAdmin()];
    const open = await makeTag(owner.token);
    const secret = await makeTag(owner.token, { private: true });
    expectError(await putTag(other.token, open.id, { name: unique("x") }), 403, "forbidden");
    expectError(await putTag(other.token, secret.id, { name: unique("x") }), 404, "not_found");
    expectError(await putTag(admin.token, secret.id, { name: unique("x") }), 404, "not_found");
    const renamed = await putTag(admin.token, open.id, { name: unique("by admin ") });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.owner_id).toBe(String(owner.id));
  });

  it("refuses bad input and a name taken", async () => {
    const user = await createTestUser();
    const [a, b] = [await makeTag(user.token), await makeTag(user.token)];
    expectError(await putTag(user.token, a.id, { name: "" }), 400, "invalid_request");
    expectError(await putTag(user.token, a.id, { category_id: 2_000_000_000 }), 404, "not_found");
    expectError(await putTag(user.token, a.id, { name: b.name }), 409, "conflict");
    await expectAuthRequired(oneTagRoute.PUT, { ...tagPath(a.id), method: "PUT", body: { name: "x" } });
  });
});

describe("DELETE /tag/(id)", () => {
  it("deletes the tag and its attachments, and records activity 5", async () => {
    const { owner, file, version } = await createFileScene();
    const tag = await makeTag(owner.token);
    expect((await attach(owner.token, tag.id, version.id)).status).toBe(201);
    const res = await deleteTag(owner.token, tag.id);
    expect(res.status, res.text).toBe(204);
    expectError(await getTag(owner.token, tag.id), 404);
    const db = await getDb();
    expect(await db.select().from(tagLinks).where(and(eq(tagLinks.targetType, "file"), eq(tagLinks.targetId, file.id)))).toEqual([]);
    const kept = await db.select().from(tagActivities).where(eq(tagActivities.tagId, tag.id));
    expect(kept.map((a) => a.type).sort()).toEqual([1, 3, 5]);
    expect(await latestLog("tag", tag.id)).toMatchObject({ type: "ADMLLOG_DELETE" });
  });

  it("refuses another user and needs a token", async () => {
    const [owner, other] = [await createTestUser(), await createTestUser()];
    const open = await makeTag(owner.token);
    const secret = await makeTag(owner.token, { private: true });
    expectError(await deleteTag(other.token, open.id), 403, "forbidden");
    expectError(await deleteTag(other.token, secret.id), 404, "not_found");
    await expectAuthRequired(oneTagRoute.DELETE, { ...tagPath(open.id), method: "DELETE" });
    expect((await getTag(owner.token, open.id)).status).toBe(200);
  });
});

describe("attach and detach: POST and DELETE /tag/(tagId)/(elementId)/(type)", () => {
  it("puts a tag on a file (any version id, stored for the file) and on a folder, once", async () => {
    const { owner, folder, version } = await createFileScene();
    const tag = await makeTag(owner.token);
    const res = await attach(owner.token, tag.id, version.id);
    expect(res.status, res.text).toBe(201);
    expect(tagResponse.strict().parse(res.body).id).toBe(tag.id);
    const again = await attach(owner.token, tag.id, version.id);
    expect(again.status, again.text).toBe(200);
    expect((await attach(owner.token, tag.id, folder.id, "folder")).status).toBe(201);
    expect(ids((await elementTags(owner.token, version.id)).body.objects)).toEqual([tag.id]);
    expect(ids((await elementTags(owner.token, folder.id, "folder")).body.objects)).toEqual([tag.id]);
    const activity = await tagActivity(owner.token, tag.id);
    expect(activity.body.objects.map((a: { type: number }) => a.type)).toEqual([3, 3, 1]);
    expect(await latestLog("tag", tag.id)).toMatchObject({ type: "ADMLLOG_INSERT" });
  });

  it("keeps the tag on the file across versions", async () => {
    const { owner, folder, file, version } = await createFileScene({ name: "report.txt" });
    const tag = await makeTag(owner.token);
    await attach(owner.token, tag.id, version.id);
    const second = await uploadText(owner, folder.id, "report.txt", "v2");
    expect(second.file.id).toBe(file.id);
    expect(ids((await elementTags(owner.token, second.version.id)).body.objects)).toEqual([tag.id]);
  });

  it("needs the edit right for a public tag, seeing the element for a private one", async () => {
    const { owner, other, folder, version } = await createFileScene();
    const open = await makeTag(owner.token);
    const mine = await makeTag(other.token, { private: true });
    const theirs = await makeTag(other.token);
    // Without any right the element does not exist for them.
    expectError(await attach(other.token, theirs.id, version.id), 404, "not_found");
    expectError(await attach(other.token, theirs.id, folder.id, "folder"), 404, "not_found");
    // Browse only: the folder is seen, its files are not.
    await grantRight(folder.id, other.id, { browse: true });
    expectError(await attach(other.token, mine.id, version.id), 404, "not_found");
    expect((await attach(other.token, mine.id, folder.id, "folder")).status).toBe(201);
    // Everything but edit: private tags yes, public tags no.
    await grantRight(folder.id, other.id, allRightsBut("edit"));
    expect((await attach(other.token, mine.id, version.id)).status).toBe(201);
    expectError(await attach(other.token, theirs.id, version.id), 403, "forbidden");
    expectError(await attach(other.token, open.id, folder.id, "folder"), 403, "forbidden");
    expect((await detach(other.token, mine.id, version.id)).status).toBe(204);
  });

  it("refuses unknown or unseen tags and bad parameters", async () => {
    const { owner, other, version } = await createFileScene();
    const secret = await makeTag(other.token, { private: true });
    expectError(await attach(owner.token, secret.id, version.id), 404, "not_found");
    expectError(await attach(owner.token, 2_000_000_000, version.id), 404, "not_found");
    const tag = await makeTag(owner.token);
    expectError(await attach(owner.token, tag.id, version.id, "trash"), 400, "invalid_request");
    expectError(await attach(owner.token, tag.id, 2_000_000_000), 404, "not_found");
    expectError(await attach(owner.token, tag.id, -3), 400, "invalid_request");
    await expectAuthRequired(elementRoute.POST, { ...elementPath(tag.id, version.id, "file"), method: "POST" });
    await expectAuthRequired(elementRoute.DELETE, { ...elementPath(tag.id, version.id, "file"), method: "DELETE" });
  });

  it("takes a tag off (activity 4); a tag that is not there is a 404; a user lacking edit is refused", async () => {
    const { owner, other, folder, version } = await createFileScene();
    const tag = await makeTag(owner.token);
    expectError(await detach(owner.token, tag.id, version.id), 404, "not_found");
    await attach(owner.token, tag.id, version.id);
    await grantRight(folder.id, other.id, allRightsBut("edit"));
    expectError(await detach(other.token, tag.id, version.id), 403, "forbidden");
    const res = await detach(owner.token, tag.id, version.id);
    expect(res.status, res.text).toBe(204);
    expect((await elementTags(owner.token, version.id)).body.objects).toEqual([]);
    expect((await tagActivity(owner.token, tag.id)).body.objects.map((a: { type: number }) => a.type)).toEqual([4, 3, 1]);
  });
});

describe("GET /tags/(elementId)/(type)", () => {
  it("lists the public tags and the caller's own private ones; nothing leaks to users who cannot see the element", async () => {
    const { owner, other, folder, version } = await createFileScene();
    const open = await makeTag(owner.token, { name: unique("a ") });
    const secret = await makeTag(owner.token, { name: unique("b "), private: true });
    await attach(owner.token, open.id, version.id);
    await attach(owner.token, secret.id, version.id);
    expect(ids((await elementTags(owner.token, version.id)).body.objects)).toEqual([open.id, secret.id]);
    expectError(await elementTags(other.token, version.id), 404, "not_found");
    await grantRight(folder.id, other.id, { browse: true });
    expectError(await elementTags(other.token, version.id), 404, "not_found");
    await grantRight(folder.id, other.id, { read: true });
    const seen = await elementTags(other.token, version.id);
    expect(seen.status, seen.text).toBe(200);
    expect(ids(seen.body.objects)).toEqual([open.id]);
    expectError(await elementTags(owner.token, version.id, "disk"), 400, "invalid_request");
    await expectAuthRequired(elementTagsRoute.GET, { path: `/api/tags/${version.id}/file`, params: { elementId: String(version.id), type: "file" } });
  });
});

describe("GET /tag/(id)/activity", () => {
  it("names the element only to callers who may see it", async () => {
    const { owner, other, version, file } = await createFileScene();
    const tag = await makeTag(owner.token);
    await attach(owner.token, tag.id, version.id);
    const mine = await tagActivity(owner.token, tag.id);
    expect(mine.status, mine.text).toBe(200);
    const [attached] = mine.body.objects;
    expect(tagActivityResponse.strict().parse(attached)).toMatchObject({ type: 3, tag_id: tag.id, owner_id: String(owner.id), element_type: "file", element_id: version.id, element_name: file.name });
    const theirs = await tagActivity(other.token, tag.id);
    expect(theirs.body.objects[0]).toEqual({ ...attached, element_id: undefined, element_name: undefined });
    expect(theirs.body.objects[0]).not.toHaveProperty("element_name");
    const secret = await makeTag(owner.token, { private: true });
    expectError(await tagActivity(other.token, secret.id), 404, "not_found");
    await expectAuthRequired(activityRoute.GET, { path: `/api/tag/${tag.id}/activity`, params: { tagId: String(tag.id) } });
  });
});

describe("GET /tags/listed", () => {
  it("answers the tags of the listed rows the caller may see, keyed by the ids given", async () => {
    const { owner, other, folder, version } = await createFileScene();
    const open = await makeTag(owner.token);
    const secret = await makeTag(owner.token, { private: true });
    await attach(owner.token, open.id, version.id);
    await attach(owner.token, secret.id, version.id);
    await attach(owner.token, open.id, folder.id, "folder");
    const query = { files: `${version.id},2000000000`, folders: String(folder.id) };
    const res = await listed(owner.token, query);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body.files)).toEqual([String(version.id)]);
    expect(ids(res.body.files[version.id]).sort()).toEqual([open.id, secret.id].sort());
    expect(ids(res.body.folders[folder.id])).toEqual([open.id]);
    expect((await listed(other.token, query)).body).toEqual({ files: {}, folders: {} });
    await grantRight(folder.id, other.id, { read: true });
    const seen = (await listed(other.token, query)).body;
    expect(ids(seen.files[version.id])).toEqual([open.id]);
    expectError(await listed(owner.token, { files: "1,x" }), 400, "invalid_request");
    await expectAuthRequired(listedRoute.GET, { path: "/api/tags/listed", query });
  });
});
