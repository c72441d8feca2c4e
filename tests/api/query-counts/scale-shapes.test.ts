import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as folderRoute from "@/app/api/folder/[folderId]/route";
import * as trashesRoute from "@/app/api/trashes/route";
import * as quotaRoute from "@/app/api/user/[userId]/quota/route";
import { getDb, rows } from "@/db";
import { fileVersions, userUsage } from "@/db/schema";
import { createTestUser } from "../../helpers/factories";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { createFolder, grantRight, uploadText } from "../../helpers/files";
import { call } from "../../helpers/http";
import { countQueries } from "../../helpers/query-count";
import { trashFile } from "../trash/fixtures";

beforeAll(openDatabase, OPEN_TIMEOUT);

// Issue 20: the shapes that keep a 10,000,000-file platform fast. A change that silently turns
// one of them into a scan of a table (or a query per item) fails here, long before the bench.

const PAGE_FILES = 3000;

/** `count` files named f-00001.txt... in `folderId`, each with one version of `size` bytes, by SQL. */
async function seedFiles(folderId: number, ownerId: number, count: number, size = 7) {
  const db = await getDb();
  // Two statements: the rows a CTE inserts are not visible to the UPDATE of the same statement.
  await db.execute(sql`
    WITH f AS (
      INSERT INTO files (folder_id, name, owner_id)
      SELECT ${folderId}::int, 'f-' || lpad(g::text, 5, '0') || '.txt', ${ownerId}::int FROM generate_series(1, ${count}::int) g
      RETURNING id)
    INSERT INTO file_versions (file_id, number, size, md5, mime, creator_id)
    SELECT id, 1, ${size}::int, 'd41d8cd98f00b204e9800998ecf8427e', 'text/plain', ${ownerId}::int FROM f`);
  await db.execute(sql`
    UPDATE files SET current_version_id = v.id FROM file_versions v
    WHERE v.file_id = files.id AND files.folder_id = ${folderId} AND files.current_version_id IS NULL`);
  await db.execute(sql`VACUUM ANALYZE files`);
}

/** The numbered parameters of a captured statement written as literals (numbers only), for EXPLAIN. */
function inline(statement: string, params: unknown[]): string {
  let text = statement;
  for (let i = params.length; i >= 1; i--) {
    const value = params[i - 1];
    if (typeof value !== "number" && !(typeof value === "string" && /^\d+$/.test(value))) throw new Error(`parameter $${i} is not a number: ${String(value)}`);
    text = text.replaceAll(`$${i}`, String(value));
  }
  return text;
}

type PlanNode = { "Node Type": string; "Index Name"?: string; "Relation Name"?: string; Plans?: PlanNode[] };
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** The plan of `statement` with sequential and bitmap scans off, so only the indexes compete. */
async function planOf(statement: string): Promise<PlanNode[]> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL enable_seqscan = off`);
    await tx.execute(sql`SET LOCAL enable_bitmapscan = off`);
    const [row] = rows<Record<string, unknown>>(await tx.execute(sql.raw(`EXPLAIN (FORMAT JSON) ${statement}`)));
    const json = Object.values(row)[0];
    const plan = (typeof json === "string" ? JSON.parse(json) : json) as { Plan: PlanNode }[];
    return nodesOf(plan[0].Plan);
  });
}

describe("a 30-item page of a big folder", () => {
  it("picks its ids on a (folder_id, name_key) index and counts on a live-files index, both index-only scans, in a bounded number of statements", async () => {
    const owner = await createTestUser();
    const folder = await createFolder(owner, owner.privateRootId!, "Big");
    await seedFiles(folder.id, owner.id, PAGE_FILES);
    const page = (offset: number) =>
      call(folderRoute.GET, { path: `/api/folder/${folder.id}`, token: owner.token, params: { folderId: String(folder.id) }, query: { offset_start: offset, nb_objects: 30, light: 1 } });
    expect((await page(0)).status).toBe(200);
    const counted = await countQueries(() => page(PAGE_FILES / 2));
    expect(counted.result.status, counted.result.text).toBe(200);
    const body = counted.result.body as { content: { files: { name: string }[] }; content_total: number };
    expect(body.content.files.map((f) => f.name)[0]).toBe(`f-${String(PAGE_FILES / 2 + 1).padStart(5, "0")}.txt`);
    expect(body.content.files).toHaveLength(30);
    expect(body.content_total).toBe(PAGE_FILES);

    const pick = counted.statements.findIndex((s) => /from "files"/.test(s) && /\boffset\b/i.test(s));
    expect(pick, counted.statements.join("\n")).toBeGreaterThanOrEqual(0);
    const pickPlan = await planOf(inline(counted.statements[pick], counted.params[pick]));
    expect(pickPlan.some((n) => n["Node Type"] === "Index Only Scan" && /^files_folder_id_name(_key_live)?_idx$/.test(n["Index Name"] ?? "")), JSON.stringify(pickPlan)).toBe(true);
    // The versions of the 30 ids only: never a scan of file_versions.
    const versionScans = pickPlan.filter((n) => n["Relation Name"] === "file_versions");
    expect(versionScans.length).toBeGreaterThan(0);
    expect(versionScans.every((n) => n["Index Name"] === "file_versions_pkey"), JSON.stringify(versionScans)).toBe(true);

    const total = counted.statements.findIndex((s) => /^select count\(\*\) from "files"/i.test(s.trim()));
    expect(total, counted.statements.join("\n")).toBeGreaterThanOrEqual(0);
    const totalPlan = await planOf(inline(counted.statements[total], counted.params[total]));
    const totalScans = totalPlan.filter((n) => n["Relation Name"] === "files");
    expect(totalScans.length > 0 && totalScans.every((n) => n["Node Type"] === "Index Only Scan" && /^files_folder_id_(name|live)_idx$/.test(n["Index Name"] ?? "")), JSON.stringify(totalPlan)).toBe(true);

    // A bounded number of statements, whatever the offset, the folder's size or its subfolders.
    await seedFiles((await createFolder(owner, folder.id, "Sub")).id, owner.id, 10);
    const first = await countQueries(() => page(0));
    expect(first.result.status).toBe(200);
    expect(counted.count, counted.statements.join("\n")).toBeLessThanOrEqual(10);
    expect(first.count, first.statements.join("\n")).toBeLessThanOrEqual(12);
  });
});

describe("a user's quota figure", () => {
  it("reads one user_usage row, kept equal to the sum of the user's versions through uploads, trash and purge", async () => {
    const owner = await createTestUser();
    const db = await getDb();
    const folder = await createFolder(owner, owner.privateRootId!, "Q");
    await uploadText(owner, folder.id, "a.txt", "12345");
    const b = await uploadText(owner, folder.id, "b.txt", "1234567");
    await uploadText(owner, folder.id, "b.txt", "12"); // a second version of b.txt
    await seedFiles(folder.id, owner.id, 20, 100);
    const sumOfVersions = async () => Number(rows<{ s: string }>(await db.execute(sql`SELECT coalesce(sum(size), 0) AS s FROM file_versions WHERE creator_id = ${owner.id}`))[0].s);
    const usage = async () => Number((await db.select().from(userUsage).where(eq(userUsage.userId, owner.id)))[0]?.bytes ?? 0);
    expect(await usage()).toBe(5 + 7 + 2 + 2000);
    expect(await usage()).toBe(await sumOfVersions());

    // Trashed content still counts; purged content no longer does; a size change is followed.
    const item = await trashFile(owner.token, b.version.id);
    expect(await usage()).toBe(await sumOfVersions());
    await db.execute(sql`DELETE FROM files WHERE id = ${b.file.id}`);
    expect(await usage()).toBe(5 + 2000);
    await db.update(fileVersions).set({ size: 105 }).where(eq(fileVersions.creatorId, owner.id));
    expect(await usage()).toBe(await sumOfVersions());
    expect(item).toBeGreaterThan(0);

    const read = () => call(quotaRoute.GET, { path: `/api/user/${owner.id}/quota`, token: owner.token, params: { userId: String(owner.id) } });
    await read();
    const counted = await countQueries(read);
    expect(counted.result.status).toBe(200);
    expect((counted.result.body as { used: number }).used).toBe(await sumOfVersions());
    expect(counted.statements.filter((s) => /file_versions/.test(s)), counted.statements.join("\n")).toEqual([]);
    expect(counted.count, counted.statements.join("\n")).toBeLessThanOrEqual(6);
  });

  it("answers 401 without a token and 403 to another user", async () => {
    const [owner, other] = [await createTestUser(), await createTestUser()];
    const params = { userId: String(owner.id) };
    expect((await call(quotaRoute.GET, { path: `/api/user/${owner.id}/quota`, params })).status).toBe(401);
    expect((await call(quotaRoute.GET, { path: `/api/user/${owner.id}/quota`, token: other.token, params })).status).toBe(403);
  });
});

describe("rights resolution at depth", () => {
  it("costs the same statements for a folder at depth 20 with rights from 20 groups as at depth 1", async () => {
    const owner = await createTestUser();
    const reader = await createTestUser();
    const db = await getDb();
    const chain = [await createFolder(owner, owner.privateRootId!, "d0")];
    for (let i = 1; i < 20; i++) chain.push(await createFolder(owner, chain[i - 1].id, `d${i}`));
    await grantRight(chain[0].id, reader.id, { browse: true, read: true });
    const get = (id: number) => call(folderRoute.GET, { path: `/api/folder/${id}`, token: reader.token, params: { folderId: String(id) } });
    expect((await get(chain[0].id)).status).toBe(200);
    const shallow = await countQueries(() => get(chain[0].id));
    for (let g = 0; g < 20; g++) {
      const [group] = rows<{ id: number }>(await db.execute(sql`INSERT INTO groups (login) VALUES (${`depth-group-${reader.id}-${g}`}) RETURNING id`));
      await db.execute(sql`INSERT INTO group_members (group_id, user_id) VALUES (${group.id}, ${reader.id})`);
      await grantRight(chain[g].id, Number(group.id), { browse: true });
    }
    expect((await get(chain[19].id)).status).toBe(200);
    const deep = await countQueries(() => get(chain[19].id));
    expect(deep.result.status, deep.result.text).toBe(200);
    expect(deep.count, `${shallow.statements.join("\n")}\n\n${deep.statements.join("\n")}`).toBeLessThanOrEqual(shallow.count);
    expect((await call(folderRoute.GET, { path: `/api/folder/${chain[19].id}`, token: (await createTestUser()).token, params: { folderId: String(chain[19].id) } })).status).toBe(404);
  });
});

// postgres.js caps a statement at 65,535 parameters; on PGlite the 66,000 rows alone take minutes.
describe.skipIf(process.env.TEST_DB === "pglite")("a trash of more items than the driver's 65,535 parameters", () => {
  it("lists every item, its ids sent as one array", async () => {
    const owner = await createTestUser();
    const folder = await createFolder(owner, owner.privateRootId!, "T");
    const count = 66_000;
    await seedFiles(folder.id, owner.id, count);
    const db = await getDb();
    await db.execute(sql`
      WITH items AS (
        INSERT INTO trash_items (file_id, owner_id, deleted_by, original_parent_id, name)
        SELECT id, owner_id, owner_id, folder_id, name FROM files WHERE folder_id = ${folder.id}
        RETURNING id, file_id)
      UPDATE files x SET deleted_at = now(), trash_id = items.id FROM items WHERE x.id = items.file_id`);
    const counted = await countQueries(() => call(trashesRoute.GET, { path: "/api/trashes", token: owner.token }));
    expect(counted.result.status, counted.result.text.slice(0, 300)).toBe(200);
    expect((counted.result.body as { files: unknown[] }).files).toHaveLength(count);
    expect(counted.count, counted.statements.join("\n").slice(0, 2000)).toBeLessThanOrEqual(12);
  }, 120_000);
});
