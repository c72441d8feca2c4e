import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as folderRoute from "@/app/api/folder/[folderId]/route";
import { getDb, rows } from "@/db";
import { files, folders, users } from "@/db/schema";
import { folderResponse } from "@/lib/contracts/folders";
import { createTestUser } from "../../helpers/factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { at, createSharedScene, getFolder, names, OPEN_TIMEOUT, openDatabase } from "./fixtures";

beforeAll(openDatabase, OPEN_TIMEOUT);

/** Folders b-dir and A-dir, files whose name, size, date and owner orders all differ. */
async function orderedScene() {
  const { owner, guest, work } = await createSharedScene();
  const db = await getDb();
  await db.update(users).set({ firstname: "Zoe", lastname: "Zed" }).where(eq(users.id, owner.id));
  const other = await createTestUser({ firstname: "Amy", lastname: "Able" });
  await grantRight(work.id, other.id, allRightsBut());
  const bDir = await createFolder(owner, work.id, "b-dir");
  const aDir = await createFolder(owner, work.id, "A-dir");
  // name order: apple, Banana, cherry, date; size order: cherry(1) date(2) apple(3) Banana(4)
  const made = [
    await uploadText(owner, work.id, "apple.txt", "aaa"),
    await uploadText(owner, work.id, "Banana.txt", "bbbb"),
    await uploadText(other, work.id, "cherry.txt", "c"),
    await uploadText(owner, work.id, "date.txt", "dd"),
  ];
  // modification order: Banana, date, apple, cherry; folders: b-dir before A-dir
  const days = { "apple.txt": 3, "Banana.txt": 1, "cherry.txt": 4, "date.txt": 2 };
  for (const m of made) await db.update(files).set({ modifiedAt: new Date(Date.UTC(2024, 0, days[m.file.name as keyof typeof days])) }).where(eq(files.id, m.file.id));
  await db.update(folders).set({ modifiedAt: new Date(Date.UTC(2024, 0, 1)) }).where(eq(folders.id, bDir.id));
  await db.update(folders).set({ modifiedAt: new Date(Date.UTC(2024, 0, 5)) }).where(eq(folders.id, aDir.id));
  return { owner, guest, other, work };
}

const listed = async (token: string, id: number, query: Record<string, string | number>) => {
  const res = await getFolder(token, id, query);
  expect(res.status, res.text).toBe(200);
  // A search answers its matches on one level, {folders, files}; a listing, the folder with its content.
  const content = query.recursive ? (res.body as { folders: { name: string }[]; files: { name: string }[] }) : folderResponse.parse(res.body).content!;
  return [...names(content.folders), ...names(content.files)];
};

describe("GET /api/folder/(folderId) with order and direction", () => {
  it("orders folders then files by name, size, modification or owner, both ways", async () => {
    const { owner, work } = await orderedScene();
    const t = owner.token;
    expect(await listed(t, work.id, {})).toEqual(["A-dir", "b-dir", "apple.txt", "Banana.txt", "cherry.txt", "date.txt"]);
    expect(await listed(t, work.id, { order: "name", direction: "desc" })).toEqual(["b-dir", "A-dir", "date.txt", "cherry.txt", "Banana.txt", "apple.txt"]);
    // A folder's size is a subtree sum: folders keep their name order.
    expect(await listed(t, work.id, { order: "size" })).toEqual(["A-dir", "b-dir", "cherry.txt", "date.txt", "apple.txt", "Banana.txt"]);
    expect(await listed(t, work.id, { order: "size", direction: "desc" })).toEqual(["b-dir", "A-dir", "Banana.txt", "apple.txt", "date.txt", "cherry.txt"]);
    expect(await listed(t, work.id, { order: "modification" })).toEqual(["b-dir", "A-dir", "Banana.txt", "date.txt", "apple.txt", "cherry.txt"]);
    expect(await listed(t, work.id, { order: "modification", direction: "desc" })).toEqual(["A-dir", "b-dir", "cherry.txt", "apple.txt", "date.txt", "Banana.txt"]);
    // Owner: "Amy Able" (cherry) before "Zoe Zed", then by name.
    expect(await listed(t, work.id, { order: "owner" })).toEqual(["A-dir", "b-dir", "cherry.txt", "apple.txt", "Banana.txt", "date.txt"]);
  });

  it("pages in the chosen order: pages follow each other without overlap, the same with offset as without", async () => {
    const { owner, work } = await orderedScene();
    const all = await listed(owner.token, work.id, { order: "size", direction: "desc" });
    const pages = [];
    for (const offset of [0, 2, 4]) pages.push(...(await listed(owner.token, work.id, { order: "size", direction: "desc", offset_start: offset, nb_objects: 2 })));
    expect(pages).toEqual(all);
    const byDate = [];
    for (const offset of [0, 3]) byDate.push(...(await listed(owner.token, work.id, { order: "modification", offset_start: offset, nb_objects: 3 })));
    expect(byDate).toEqual(["b-dir", "A-dir", "Banana.txt", "date.txt", "apple.txt", "cherry.txt"]);
    const byOwner = [];
    for (const offset of [0, 3]) byOwner.push(...(await listed(owner.token, work.id, { order: "owner", offset_start: offset, nb_objects: 3 })));
    expect(byOwner).toEqual(["A-dir", "b-dir", "cherry.txt", "apple.txt", "Banana.txt", "date.txt"]);
  });

  it("orders search results too", async () => {
    const { owner, work } = await orderedScene();
    const search = { recursive: 1, search_label: "a", in_name: 1 };
    expect(await listed(owner.token, work.id, { ...search, order: "size", direction: "desc" })).toEqual(["A-dir", "Banana.txt", "apple.txt", "date.txt"]);
    expect(await listed(owner.token, work.id, { ...search, order: "modification" })).toEqual(["A-dir", "Banana.txt", "date.txt", "apple.txt"]);
  });

  it("refuses an unknown order, another user, a user without browse, and no token", async () => {
    const { owner, guest, work } = await orderedScene();
    expectError(await getFolder(owner.token, work.id, { order: "colour" }), 400, "invalid_request");
    expectError(await getFolder(owner.token, work.id, { order: "name", direction: "up" }), 400, "invalid_request");
    expect((await getFolder(guest.token, work.id, { order: "size" })).status).toBe(404);
    const browser = await createTestUser();
    await grantRight(work.id, browser.id, { browse: true, read: false });
    // Browse without read: the folders in order, no files.
    expect(await listed(browser.token, work.id, { order: "modification" })).toEqual(["b-dir", "A-dir"]);
    await expectAuthRequired(folderRoute.GET, { ...at(work.id), query: { order: "size" } });
  });

  it("a page by name can be read from the folder's name index in either direction, without sorting the folder (EXPLAIN)", async () => {
    const db = await getDb();
    // The shared test database's statistics (a few rows per folder) may rightly prefer a sort of
    // a tiny folder; with sorting priced out, the plan shows whether an index gives the order a
    // folder of millions needs. The orders by date, size and owner have no such index yet.
    const plan = (orderBy: string) =>
      db.transaction(async (tx) => {
        await tx.execute(sql.raw("SET LOCAL enable_sort = off"));
        const explained = await tx.execute(sql.raw(`EXPLAIN SELECT f.id FROM files f WHERE f.folder_id = 1 AND f.deleted_at IS NULL ORDER BY ${orderBy} LIMIT 100 OFFSET 100`));
        return rows<Record<string, string>>(explained)
          .map((r) => Object.values(r)[0])
          .join("\n");
      });
    for (const order of ["f.name_key, f.id", "f.name_key DESC, f.id DESC"]) {
      const text = await plan(order);
      expect(text, text).toMatch(/files_folder_id_name_idx/);
      // No Sort node over the folder (an Incremental Sort on the id tie-breaker among equal names is fine).
      expect(text, text).not.toMatch(/(^|->)\s*Sort\s+\(cost/m);
    }
  });
});
