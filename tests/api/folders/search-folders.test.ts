import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as folderRoute from "@/app/api/folder/[folderId]/route";
import { getDb } from "@/db";
import { files, folders } from "@/db/schema";
import { createAdmin, createTestUser, unique } from "../../helpers/factories";
import { createFolder, grantRight, uploadText } from "../../helpers/files";
import { expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { at, createSharedScene, getFolder, names } from "./fixtures";
import { OPEN_TIMEOUT, openDatabase } from "./fixtures";

beforeAll(openDatabase, OPEN_TIMEOUT);

const search = (token: string, id: number, query: Record<string, string | number> = {}) => getFolder(token, id, { recursive: 1, ...query });

async function setDates(table: "files" | "folders", id: number, date: Date) {
  const db = await getDb();
  if (table === "files") await db.update(files).set({ createdAt: date, modifiedAt: date }).where(eq(files.id, id));
  else await db.update(folders).set({ createdAt: date, modifiedAt: date }).where(eq(folders.id, id));
}

describe("GET /api/folder/(folderId)?recursive (search)", () => {
  it("finds folders and files below the folder whose names hold every keyword, on one level", async () => {
    const { owner, work } = await createSharedScene();
    const reports = await createFolder(owner, work.id, "Annual Reports");
    const deep = await createFolder(owner, reports.id, "2024");
    await uploadText(owner, deep.id, "report-annual-2024.pdf", "x");
    await uploadText(owner, deep.id, "report-monthly.pdf", "x");
    await uploadText(owner, work.id, "notes.txt", "x");
    await uploadText(owner, owner.privateRootId!, "annual report outside.txt", "x");

    const res = await search(owner.token, work.id, { search_label: "ANNUAL report", in_name: 1 });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["files", "folders"]);
    expect(names(res.body.folders)).toEqual(["Annual Reports"]);
    expect(names(res.body.files)).toEqual(["report-annual-2024.pdf"]);
    // No keywords: everything below; the depth parameter is ignored.
    const all = await search(owner.token, work.id, { depth: 0 });
    expect(names(all.body.folders)).toEqual(["2024", "Annual Reports"]);
    expect(names(all.body.files).sort()).toEqual(["notes.txt", "report-annual-2024.pdf", "report-monthly.pdf"]);
    // LIKE wildcards are matched literally.
    expect((await search(owner.token, work.id, { search_label: "%" })).body).toEqual({ folders: [], files: [] });
  });

  it("filters by creation and modification dates (ISO or @unix) and by size", async () => {
    const { owner, work } = await createSharedScene();
    const old = await uploadText(owner, work.id, "old.txt", "1234567890");
    const recent = await uploadText(owner, work.id, "recent.txt", "12");
    const oldFolder = await createFolder(owner, work.id, "old-folder");
    await setDates("files", old.file.id, new Date("2020-01-01T00:00:00Z"));
    await setDates("folders", oldFolder.id, new Date("2020-01-01T00:00:00Z"));

    const before = await search(owner.token, work.id, { modification_end: "2021-01-01T00:00:00Z" });
    expect(names(before.body.files)).toEqual(["old.txt"]);
    expect(names(before.body.folders)).toEqual(["old-folder"]);
    const after = await search(owner.token, work.id, { modification_start: `@${Math.floor(Date.UTC(2021, 0, 1) / 1000)}` });
    expect(names(after.body.files)).toEqual(["recent.txt"]);
    expect(after.body.folders).toEqual([]);
    const created = await search(owner.token, work.id, { creation_start: "2000-01-01", creation_end: new Date(Date.now() + 60_000).toISOString() });
    expect(names(created.body.files)).toEqual(["old.txt", "recent.txt"]);

    const big = await search(owner.token, work.id, { size_start: 5 });
    expect(names(big.body.files)).toEqual(["old.txt"]);
    expect(big.body.folders).toEqual([]);
    const small = await search(owner.token, work.id, { size_end: 5 });
    expect(small.body.files.map((f: { id: number }) => f.id)).toEqual([recent.version.id]);
    expectError(await search(owner.token, work.id, { creation_start: "yesterday" }), 400, "invalid_request");
  });

  it("searches names only when in_name is on or no switch is (contents and annotations: tests/api/search)", async () => {
    const { owner, work } = await createSharedScene();
    await uploadText(owner, work.id, "budget.xlsx", "x");
    const elsewhere = await search(owner.token, work.id, { search_label: "budget", in_content: 1, in_annotations: 1, in_name: 0 });
    expect(elsewhere.status, elsewhere.text).toBe(200);
    expect(elsewhere.body).toEqual({ folders: [], files: [] });
    const named = await search(owner.token, work.id, { search_label: "budget", in_content: 1, in_name: 1 });
    expect(names(named.body.files)).toEqual(["budget.xlsx"]);
  });

  it("returns only what the caller may read, below and with `global` across the platform", async () => {
    const { owner, guest, work } = await createSharedScene();
    const tag = unique("zq");
    const open = await createFolder(owner, work.id, `open-${tag}`);
    const hidden = await createFolder(owner, work.id, `hidden-${tag}`);
    const browseOnly = await createFolder(owner, work.id, `browse-${tag}`);
    await uploadText(owner, open.id, `a-${tag}.txt`, "x");
    await uploadText(owner, hidden.id, `b-${tag}.txt`, "x");
    await uploadText(owner, browseOnly.id, `c-${tag}.txt`, "x");
    await grantRight(work.id, guest.id, { read: true });
    await grantRight(hidden.id, guest.id, { browse: false });
    await grantRight(browseOnly.id, guest.id, { browse: true });
    await uploadText(guest, guest.privateRootId!, `mine-${tag}.txt`, "x");
    const stranger = await createTestUser();
    await uploadText(stranger, stranger.privateRootId!, `other-${tag}.txt`, "x");

    const below = await search(guest.token, work.id, { search_label: tag });
    expect(names(below.body.folders)).toEqual([`browse-${tag}`, `open-${tag}`]);
    expect(names(below.body.files)).toEqual([`a-${tag}.txt`]);

    const global = await search(guest.token, guest.privateRootId!, { search_label: tag, global: 1 });
    expect(names(global.body.files)).toEqual([`a-${tag}.txt`, `mine-${tag}.txt`]);
    expect(names(global.body.folders)).toEqual([`browse-${tag}`, `open-${tag}`]);

    const admin = await createAdmin();
    const everything = await search(admin.token, admin.privateRootId!, { search_label: tag, global: 1 });
    expect(names(everything.body.files)).toEqual([`a-${tag}.txt`, `b-${tag}.txt`, `c-${tag}.txt`, `mine-${tag}.txt`, `other-${tag}.txt`]);
  });

  it("answers 404 when the folder is not browsable and requires a token", async () => {
    const { guest, work } = await createSharedScene();
    expectError(await search(guest.token, work.id, { search_label: "x" }), 404, "not_found");
    await expectAuthRequired(folderRoute.GET, { ...at(work.id), query: { recursive: 1 } });
  });
});
