import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_ROUTES } from "@/app/api/route-table";
import { sql } from "drizzle-orm";
import { getDb } from "@/db";
import { ZIP_MAX_ENTRIES, ZIP_MAX_SELECTED } from "@/lib/contracts/zip";
import { nodePaths } from "@/lib/server/http/node-paths";
import { zipFolder, zipSelection } from "@/lib/server/zip/serve-user-zip";
import { LEFT_OUT_NOTE } from "@/lib/server/zip/list-user-zip-entries";
import { createExpiredToken, createTestUser } from "../../helpers/factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { serveNode } from "../../helpers/node-server";
import { unzip } from "../../helpers/unzip";
import { md5, openDatabase, randomFile, uploadBytes } from "../../helpers/upload-factories";

// User zips answer on Node's own response (pages/api): tested over real HTTP. `running` counts
// the handlers still at work, to see that a client going away leaves nothing behind.
let server: Awaited<ReturnType<typeof serveNode>>;
let running = 0;
beforeAll(async () => {
  server = await serveNode(async (req, res) => {
    running++;
    try {
      await (req.url?.startsWith("/api/zip/folder/") ? zipFolder(req, res) : zipSelection(req, res));
    } finally {
      running--;
    }
  });
});
afterAll(() => server.close());
beforeAll(openDatabase, 180_000);

async function get(path: string, token: string | null) {
  const res = await fetch(`${server.url}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body, json: () => JSON.parse(body.toString()) as { code: string } };
}

/** A folder with two files, a subfolder with a binary file and an empty subfolder. */
async function scene() {
  const owner = await createTestUser();
  const folder = await createFolder(owner, owner.privateRootId!, "Reports");
  const sub = await createFolder(owner, folder.id, "Q3");
  await createFolder(owner, folder.id, "Empty");
  const binary = randomFile(400_000);
  const a = await uploadText(owner, folder.id, "a.txt", "alpha");
  const notes = await uploadText(owner, folder.id, "notes.md", "# notes\n".repeat(500));
  const bin = await uploadBytes(owner, sub.id, "data.bin", binary.data);
  return { owner, folder, sub, binary, a, notes, bin };
}

describe("GET /api/zip/folder/(folderId)", () => {
  it("streams the folder's subtree with every file's bytes", async () => {
    const { owner, folder, binary } = await scene();
    const res = await get(`/api/zip/folder/${folder.id}`, owner.token);
    expect(res.status, res.body.toString()).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toContain("Reports.zip");
    const entries = await unzip(res.body);
    expect([...entries.keys()].sort()).toEqual(["Reports/", "Reports/Empty/", "Reports/Q3/", "Reports/Q3/data.bin", "Reports/a.txt", "Reports/notes.md"]);
    expect(md5(entries.get("Reports/Q3/data.bin")!.data!)).toBe(binary.md5);
    expect(entries.get("Reports/a.txt")!.data!.toString()).toBe("alpha");
    expect(md5(entries.get("Reports/notes.md")!.data!)).toBe(md5(Buffer.from("# notes\n".repeat(500))));
  });

  it("leaves out the files of a folder without the download right and lists them in a note", async () => {
    const { owner, folder, sub, binary } = await scene();
    const reader = await createTestUser();
    await grantRight(folder.id, reader.id, { read: true, download: true });
    await grantRight(sub.id, reader.id, allRightsBut("download"));
    const res = await get(`/api/zip/folder/${folder.id}`, reader.token);
    expect(res.status, res.body.toString()).toBe(200);
    const entries = await unzip(res.body);
    expect(entries.has("Reports/Q3/data.bin")).toBe(false);
    expect(entries.has("Reports/Q3/")).toBe(true);
    expect(entries.get("Reports/a.txt")!.data!.toString()).toBe("alpha");
    const note = entries.get(LEFT_OUT_NOTE)!.data!.toString();
    expect(note).toContain("Reports/Q3/data.bin");
    expect(note).not.toContain("a.txt");
    // The owner gets it whole, with no note.
    const whole = await unzip((await get(`/api/zip/folder/${folder.id}`, owner.token)).body);
    expect(md5(whole.get("Reports/Q3/data.bin")!.data!)).toBe(binary.md5);
    expect(whole.has(LEFT_OUT_NOTE)).toBe(false);
  });

  it("is refused to another user, without a token and with an expired one", async () => {
    const { folder } = await scene();
    const other = await createTestUser();
    const refused = await get(`/api/zip/folder/${folder.id}`, other.token);
    expect(refused.status).toBe(404);
    expect(refused.json().code).toBe("not_found");
    expect((await get(`/api/zip/folder/${folder.id}`, null)).status).toBe(401);
    expect((await get(`/api/zip/folder/${folder.id}`, await createExpiredToken(other.id))).json().code).toBe("unauthorized");
    expect((await get(`/api/zip/folder/abc`, other.token)).status).toBe(400);
  });

  it("refuses a tree of more than ZIP_MAX_ENTRIES entries with a 413 and the contract's error body", async () => {
    const owner = await createTestUser();
    const huge = await createFolder(owner, owner.privateRootId!, "Huge");
    const path = sql.raw(`ARRAY[${[...huge.path, huge.id].join(",")}]::int[]`);
    await (await getDb()).execute(sql`
      INSERT INTO folders (name, parent_id, path, owner_id, space)
      SELECT 'f' || n, ${huge.id}, ${path}, ${owner.id}, ${huge.space} FROM generate_series(1, ${ZIP_MAX_ENTRIES}) n`);
    const res = await get(`/api/zip/folder/${huge.id}`, owner.token);
    expect(res.status).toBe(413);
    expect(res.json()).toMatchObject({ code: "payload_too_large" });
  }, 180_000);

  it("leaves nothing running when the client goes away mid-zip", async () => {
    const owner = await createTestUser();
    const folder = await createFolder(owner, owner.privateRootId!, "Big");
    for (const name of ["one.bin", "two.bin"]) await uploadBytes(owner, folder.id, name, randomFile(16 * 1024 * 1024).data);
    const idle = running;
    const controller = new AbortController();
    const res = await fetch(`${server.url}/api/zip/folder/${folder.id}`, { headers: { Authorization: `Bearer ${owner.token}` }, signal: controller.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read();
    expect(running).toBe(idle + 1);
    controller.abort();
    for (let i = 0; i < 100 && running > idle; i++) await new Promise((r) => setTimeout(r, 50));
    expect(running).toBe(idle);
  });
});

describe("GET /api/zip?files=&folders=", () => {
  it("zips a selection of files and folders, numbering names that clash", async () => {
    const { owner, sub, a, binary } = await scene();
    const other = await createFolder(owner, owner.privateRootId!, "Other");
    const otherA = await uploadText(owner, other.id, "a.txt", "another alpha");
    const res = await get(`/api/zip?files=${a.version.id},${otherA.version.id}&folders=${sub.id}&name=Picked`, owner.token);
    expect(res.status, res.body.toString()).toBe(200);
    expect(res.headers.get("content-disposition")).toContain("Picked.zip");
    const entries = await unzip(res.body);
    expect([...entries.keys()].sort()).toEqual(["Q3/", "Q3/data.bin", "a (2).txt", "a.txt"]);
    expect(entries.get("a.txt")!.data!.toString()).toBe("alpha");
    expect(entries.get("a (2).txt")!.data!.toString()).toBe("another alpha");
    expect(md5(entries.get("Q3/data.bin")!.data!)).toBe(binary.md5);
  });

  it("lists a selected file without the download right instead of its bytes", async () => {
    const { folder, a, notes } = await scene();
    const reader = await createTestUser();
    await grantRight(folder.id, reader.id, allRightsBut("download"));
    const entries = await unzip((await get(`/api/zip?files=${a.version.id},${notes.version.id}`, reader.token)).body);
    expect([...entries.keys()]).toEqual([LEFT_OUT_NOTE]);
    expect(entries.get(LEFT_OUT_NOTE)!.data!.toString()).toMatch(/a\.txt[\s\S]*notes\.md/);
  });

  it("refuses another user's files and folders, no token, an empty and a huge selection", async () => {
    const { a, sub } = await scene();
    const other = await createTestUser();
    const file = await get(`/api/zip?files=${a.version.id}`, other.token);
    expect(file.status).toBe(403);
    expect(file.json().code).toBe("forbidden");
    expect((await get(`/api/zip?folders=${sub.id}`, other.token)).status).toBe(404);
    expect((await get(`/api/zip?files=${a.version.id}`, null)).status).toBe(401);
    const empty = await get(`/api/zip`, other.token);
    expect(empty.status).toBe(400);
    expect(empty.json().code).toBe("invalid_request");
    const ids = Array.from({ length: ZIP_MAX_SELECTED + 1 }, (_, i) => i + 1).join(",");
    const huge = await get(`/api/zip?files=${ids}`, other.token);
    expect(huge.status).toBe(400);
    expect(huge.json().code).toBe("invalid_request");
  });
});

describe("the zips on server.ts's fast paths", () => {
  it("answers /api/zip/folder/(id) and /api/zip as streamed zips, with the API's headers", async () => {
    const { owner, folder, a } = await scene();
    const answer = nodePaths(API_ROUTES);
    const fast = await serveNode(async (req, res) => {
      if (!answer(req, res)) res.writeHead(418).end();
    });
    try {
      for (const path of [`/api/zip/folder/${folder.id}`, `/api/zip?files=${a.version.id}`]) {
        const res = await fetch(`${fast.url}${path}`, { headers: { Authorization: `Bearer ${owner.token}` } });
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toBe("application/zip");
        expect(res.headers.get("x-frame-options")).toBe("DENY");
        expect(res.headers.get("transfer-encoding")).toBe("chunked");
        const entries = await unzip(Buffer.from(await res.arrayBuffer()));
        expect(entries.get(path.includes("folder") ? "Reports/a.txt" : "a.txt")!.data!.toString()).toBe("alpha");
      }
    } finally {
      await fast.close();
    }
  });
});
