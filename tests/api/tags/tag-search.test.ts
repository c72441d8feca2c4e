import { beforeAll, describe, expect, it } from "vitest";
import { createAdmin, createTestUser, unique } from "../../helpers/factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { expectError } from "../../helpers/http";
import { getFolder, names, OPEN_TIMEOUT, openDatabase } from "../folders/fixtures";
import { attach, makeTag } from "./tag-helpers";

beforeAll(openDatabase, OPEN_TIMEOUT);

const search = (token: string, id: number, query: Record<string, string | number>) => getFolder(token, id, { recursive: 1, ...query });

/** An owner's folder "Work" with three files and a sub-folder, tagged: red on a, b and Sub; blue on b and c. */
async function scene() {
  const owner = await createTestUser();
  const work = await createFolder(owner, owner.privateRootId!, "Work");
  const sub = await createFolder(owner, work.id, "Sub");
  const word = unique("w");
  const a = await uploadText(owner, work.id, `${word}-a.txt`, "alpha");
  const b = await uploadText(owner, work.id, `${word}-b.txt`, "beta beta");
  const c = await uploadText(owner, sub.id, `${word}-c.txt`, "gamma");
  const red = await makeTag(owner.token);
  const blue = await makeTag(owner.token);
  for (const v of [a, b]) expect((await attach(owner.token, red.id, v.version.id)).status).toBe(201);
  for (const v of [b, c]) expect((await attach(owner.token, blue.id, v.version.id)).status).toBe(201);
  expect((await attach(owner.token, red.id, sub.id, "folder")).status).toBe(201);
  return { owner, work, sub, word, a, b, c, red, blue };
}

describe("folder search by tags (tags=, every tag must match)", () => {
  it("finds tagged files and folders below the scope; several tags must all be there", async () => {
    const { owner, work, word, red, blue } = await scene();
    const one = await search(owner.token, work.id, { tags: String(red.id) });
    expect(one.status, one.text).toBe(200);
    expect(names(one.body.files)).toEqual([`${word}-a.txt`, `${word}-b.txt`]);
    expect(names(one.body.folders)).toEqual(["Sub"]);
    const both = await search(owner.token, work.id, { tags: `${red.id},${blue.id}` });
    expect(names(both.body.files)).toEqual([`${word}-b.txt`]);
    expect(both.body.folders).toEqual([]);
    expect(names((await search(owner.token, work.id, { tags: String(blue.id) })).body.files)).toEqual([`${word}-b.txt`, `${word}-c.txt`]);
  });

  it("combines with the keywords, dates and sizes", async () => {
    const { owner, work, word, red, blue } = await scene();
    expect(names((await search(owner.token, work.id, { tags: String(blue.id), search_label: `${word}-c` })).body.files)).toEqual([`${word}-c.txt`]);
    // Sizes apply to files only: "beta beta" is 9 bytes, "alpha" 5.
    const sized = await search(owner.token, work.id, { tags: String(red.id), size_start: 6 });
    expect(names(sized.body.files)).toEqual([`${word}-b.txt`]);
    expect(sized.body.folders).toEqual([]);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await search(owner.token, work.id, { tags: String(red.id), modification_start: `@${future}` })).body).toEqual({ folders: [], files: [] });
  });

  it("never shows what the caller cannot see through its tags", async () => {
    const { owner, work, sub, word, red } = await scene();
    const guest = await createTestUser();
    // No right: nothing, even across the platform.
    expect((await search(guest.token, guest.privateRootId!, { tags: String(red.id), global: 1 })).body).toEqual({ folders: [], files: [] });
    // Browse without read on Work: its sub-folder shows, its files do not.
    await grantRight(work.id, guest.id, allRightsBut("read"));
    const browsing = await search(guest.token, work.id, { tags: String(red.id) });
    expect(browsing.body.files).toEqual([]);
    expect(names(browsing.body.folders)).toEqual(["Sub"]);
    await grantRight(work.id, guest.id, { read: true });
    await grantRight(sub.id, guest.id, { browse: false });
    expect(names((await search(guest.token, work.id, { tags: String(red.id) })).body.files)).toEqual([`${word}-a.txt`, `${word}-b.txt`]);
    const admin = await createAdmin();
    expect(names((await search(admin.token, admin.privateRootId!, { tags: String(red.id), global: 1 })).body.files)).toEqual([`${word}-a.txt`, `${word}-b.txt`]);
    expect(owner.id).toBeGreaterThan(0);
  });

  it("another user's private tag matches nothing; bad lists are a 400", async () => {
    const { owner, work, b } = await scene();
    const secret = await makeTag(owner.token, { private: true });
    expect((await attach(owner.token, secret.id, b.version.id)).status).toBe(201);
    const guest = await createTestUser();
    await grantRight(work.id, guest.id, { read: true });
    expect((await search(guest.token, work.id, { tags: String(secret.id) })).body).toEqual({ folders: [], files: [] });
    expect((await search(owner.token, work.id, { tags: String(secret.id) })).body.files).toHaveLength(1);
    expect((await search(owner.token, work.id, { tags: "2000000000" })).body).toEqual({ folders: [], files: [] });
    expectError(await search(owner.token, work.id, { tags: "1,abc" }), 400, "invalid_request");
    expectError(await search(owner.token, work.id, { tags: "," }), 400, "invalid_request");
  });
});
