import { beforeAll, describe, expect, it } from "vitest";
import * as createAnnotationRoute from "@/app/api/annotation/route";
import * as annotationsRoute from "@/app/api/annotations/[targetId]/[type]/route";
import * as recentAnnotationsRoute from "@/app/api/annotations/all/route";
import * as folderRoute from "@/app/api/folder/[folderId]/route";
import * as folderInvitationsRoute from "@/app/api/invites/[folderId]/route";
import * as invitationsRoute from "@/app/api/invites/route";
import * as logsRoute from "@/app/api/logs/route";
import * as shareEmailsRoute from "@/app/api/shares/emails/route";
import * as sharesRoute from "@/app/api/shares/route";
import * as trashRoute from "@/app/api/trashes/route";
import * as ulinksRoute from "@/app/api/ulinks/route";
import * as usersRoute from "@/app/api/users/route";
import { getDb } from "@/db";
import { logs, shareEmailRecipients, shareEmails, shareRoots, shares } from "@/db/schema";
import { newLinkKey } from "@/lib/server/links/link-key";
import { createAdmin, createTestUser, unique, type TestUser } from "../../helpers/factories";
import { lockAs, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, type CallResult } from "../../helpers/http";
import { countQueries, routeWork } from "../../helpers/query-count";
import { createInvitation } from "../invitations/scene";
import { trashFile, trashFolder } from "../trash/fixtures";
import { createLink } from "../ulinks/ulink-helpers";

beforeAll(openDatabase, OPEN_TIMEOUT);

/**
 * A list route must cost the same number of statements for 3 items as for 30 (style.md: a listing
 * of 30 items is a bounded number of queries). `grow(n)` brings the listed items up to n; `list`
 * calls the route; `listed` reads how many items the response holds. An uncounted call before each
 * counted one warms the caches (platform configuration, session) so both see the same state.
 */
async function expectBoundedQueries(grow: (n: number) => Promise<void>, list: () => Promise<CallResult>, listed: (body: any) => number) {
  await grow(3);
  const warm = await list();
  expect(warm.status, warm.text).toBe(200);
  const few = await countQueries(list);
  expect(listed(few.result.body)).toBe(3);
  await grow(30);
  await list();
  const many = await countQueries(list);
  expect(many.result.status, many.result.text).toBe(200);
  expect(listed(many.result.body)).toBe(30);
  const [fewWork, manyWork] = [routeWork(few.statements), routeWork(many.statements)];
  expect(fewWork.length).toBeGreaterThan(0);
  expect(manyWork.length, `3 items:\n${fewWork.join("\n")}\n\n30 items:\n${manyWork.join("\n")}`).toBe(fewWork.length);
  return fewWork.length;
}


/** Calls `make(i)` for i from the current count up to n, one at a time (ids stay in order). */
function grower(make: (i: number) => Promise<unknown>) {
  let made = 0;
  return async (n: number) => {
    for (; made < n; made++) await make(made);
  };
}

const get = (handler: Parameters<typeof call>[0], token: string, params: Record<string, string> = {}, query: Record<string, string | number> = {}) =>
  call(handler, { method: "GET", token, params, query });

/** A folder of `owner`'s private space holding one file, locked by `locker` (names and locks are presented). */
async function folderWithLockedFile(owner: TestUser, locker: TestUser, parentId = owner.privateRootId!) {
  const folder = await createFolder(owner, parentId, unique("f_"));
  const upload = await uploadText(owner, folder.id, `${unique("doc_")}.txt`, "hello");
  await lockAs(locker, upload.file.id);
  return { ...upload, folder };
}

describe("list routes cost a bounded number of queries, whatever the page size", () => {
  it("GET /shares: each share with a folder root and a locked file root", async () => {
    const owner = await createTestUser();
    const locker = await createTestUser();
    const db = await getDb();
    const grow = grower(async () => {
      const { folder, file } = await folderWithLockedFile(owner, locker);
      const [share] = await db.insert(shares).values({ key: newLinkKey(), ownerId: owner.id, flags: 4, name: unique("share_") }).returning();
      await db.insert(shareRoots).values([
        { shareId: share.id, entityType: 0, objectId: folder.id },
        { shareId: share.id, entityType: 1, objectId: file.id },
      ]);
    });
    await expectBoundedQueries(grow, () => get(sharesRoute.GET, owner.token, {}, { nb_objects: 50 }), (body) => {
      for (const share of body.objects) expect(share.roots.map((r: { entity_type: number; lock: unknown }) => [r.entity_type, r.lock !== null && r.lock !== undefined])).toEqual([[0, false], [1, true]]);
      return body.objects.length;
    });
  });

  it("GET /ulinks: each drop link to a folder of its own", async () => {
    const owner = await createTestUser();
    const grow = grower(async () => {
      const folder = await createFolder(owner, owner.privateRootId!, unique("drop_"));
      await createLink(owner, { folder_id: folder.id });
    });
    await expectBoundedQueries(grow, () => get(ulinksRoute.GET, owner.token, {}, { nb_objects: 50 }), (body) => body.objects.length);
  });

  it("GET /folder/(id): subfolders and locked files of a folder", async () => {
    const owner = await createTestUser();
    const locker = await createTestUser();
    const parent = await createFolder(owner, owner.privateRootId!, unique("parent_"));
    // Each step adds a subfolder holding a file and a locked file next to it; depth 1 lists both levels.
    const grow = grower(async () => {
      const { folder } = await folderWithLockedFile(owner, locker, parent.id);
      const upload = await uploadText(owner, parent.id, `${unique("top_")}.txt`, "hello");
      await lockAs(locker, upload.file.id);
      return folder;
    });
    await expectBoundedQueries(grow, () => get(folderRoute.GET, owner.token, { folderId: String(parent.id) }, { depth: 1 }), (body) => {
      const { files, folders } = body.content as { files: { lock: unknown }[]; folders: { content?: { files: unknown[] } }[] };
      expect(files.length).toBe(folders.length);
      expect(files.every((f) => f.lock)).toBe(true);
      expect(folders.every((f) => f.content?.files.length === 1)).toBe(true);
      return folders.length;
    });
  });

  it("GET /trashes: trashed folders and files", async () => {
    const owner = await createTestUser();
    const grow = grower(async (i) => {
      const { folder, version } = await folderWithLockedFile(owner, owner);
      if (i % 2 === 0) await trashFolder(folder, owner);
      else await trashFile(owner.token, version.id);
    });
    await expectBoundedQueries(grow, () => get(trashRoute.GET, owner.token), (body) => body.folders.length + body.files.length);
  });

  it("GET /annotations/(target)/file and GET /annotations/all: annotations by several authors", async () => {
    const owner = await createTestUser();
    const { folder, version } = await folderWithLockedFile(owner, owner);
    const authors = [owner, await createTestUser(), await createTestUser()];
    for (const author of authors.slice(1)) await grantRight(folder.id, author.id, allRightsBut("delete"));
    const grow = grower(async (i) => {
      const res = await call(createAnnotationRoute.POST, { method: "POST", token: authors[i % 3].token, body: { target_id: version.id, target_type: "file", text: `note ${i}` } });
      expect(res.status, res.text).toBe(201);
    });
    await expectBoundedQueries(grow, () => get(annotationsRoute.GET, owner.token, { targetId: String(version.id), type: "file" }, { nb_objects: 50 }), (body) => body.objects.length);
    const few = await countQueries(() => get(recentAnnotationsRoute.GET, owner.token, {}, { nb_objects: 3 }));
    const many = await countQueries(() => get(recentAnnotationsRoute.GET, owner.token, {}, { nb_objects: 30 }));
    expect([few.result.status, many.result.status]).toEqual([200, 200]);
    expect([few.result.body.objects.length, many.result.body.objects.length]).toEqual([3, 30]);
    expect(routeWork(many.statements).length, many.statements.join("\n")).toBe(routeWork(few.statements).length);
  });

  it("GET /users: an administrator's search", async () => {
    const admin = await createAdmin();
    const prefix = unique("qc");
    const grow = grower((i) => createTestUser({ login: `${prefix}_${i}` }));
    await expectBoundedQueries(grow, () => get(usersRoute.GET, admin.token, {}, { keyword: prefix, nb_objects: 50 }), (body) => body.objects.length);
  });

  it("GET /logs: entries about one object", async () => {
    const admin = await createAdmin();
    const actor = await createTestUser();
    const objectId = unique("obj");
    const db = await getDb();
    const grow = grower(async (i) => {
      await db.insert(logs).values({ userId: actor.id, userName: actor.login, message: `entry ${i}`, type: "ADMLLOG_UPDATE", objectType: "file", objectId });
    });
    await expectBoundedQueries(grow, () => get(logsRoute.GET, admin.token, {}, { object_type: "file", object_id: objectId, nb_objects: 50 }), (body) => body.objects.length);
  });

  it("GET /shares/emails: email shares with two recipients each", async () => {
    const owner = await createTestUser();
    const db = await getDb();
    const grow = grower(async (i) => {
      const folder = await createFolder(owner, owner.privateRootId!, unique("mailed_"));
      const [share] = await db.insert(shares).values({ key: newLinkKey(), ownerId: owner.id, flags: 4, name: `mailed ${i}` }).returning();
      await db.insert(shareRoots).values({ shareId: share.id, entityType: 0, objectId: folder.id });
      const [row] = await db.insert(shareEmails).values({ shareId: share.id, ownerId: owner.id, object: `mail ${i}` }).returning();
      await db.insert(shareEmailRecipients).values([
        { shareEmailId: row.id, email: `${unique("a")}@example.test`, key: newLinkKey() },
        { shareEmailId: row.id, email: `${unique("b")}@example.test`, key: newLinkKey() },
      ]);
    });
    await expectBoundedQueries(grow, () => get(shareEmailsRoute.GET, owner.token, {}, { nb_objects: 50 }), (body) => body.objects.length);
  });

  it("GET /invites and GET /invites/(folderId): invitations to folders", async () => {
    const owner = await createTestUser();
    const sharer = await createTestUser();
    const folder = await createFolder(owner, owner.privateRootId!, unique("invited_"));
    await grantRight(folder.id, sharer.id, allRightsBut("delete"));
    const grow = grower(async (i) => {
      await createInvitation(i % 2 ? sharer : owner, folder.id);
    });
    await expectBoundedQueries(grow, () => get(folderInvitationsRoute.GET, owner.token, { folderId: String(folder.id) }), (body) => body.length);
    // The sender's own list: the owner sent every other one of the 30.
    const mine = await countQueries(() => get(invitationsRoute.GET, owner.token));
    expect(mine.result.status, mine.result.text).toBe(200);
    expect(mine.result.body).toHaveLength(15);
    const theirs = await countQueries(() => get(invitationsRoute.GET, sharer.token));
    expect(theirs.result.body).toHaveLength(15);
    expect(routeWork(mine.statements).length).toBe(routeWork(theirs.statements).length);
  });
});
