import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as trashRoute from "@/app/api/trash/[trashId]/route";
import * as trashesRoute from "@/app/api/trashes/route";
import { getDb } from "@/db";
import { files, folders } from "@/db/schema";
import { downloadById } from "@/lib/server/downloads/serve-download";
import { createAdmin, createTestUser, unique } from "../../helpers/factories";
import { createOwnFolder, findTrashItem, OPEN_TIMEOUT, openDatabase, reloadFile } from "../../helpers/file-ops-factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { serveNode } from "../../helpers/node-server";
import { deleteFolder } from "../folders/fixtures";
import { trashFile } from "./fixtures";

// Issue 25, finding 2: the delete right alone sent a file to the deleter's hands (restore into
// their own folder, then download). The owner keeps what is deleted, in their trash.

const restore = (token: string, id: number, body: unknown = {}) => call(trashRoute.PUT, { method: "PUT", path: `/api/trash/${id}`, token, params: { trashId: String(id) }, body });
const readItem = (token: string, id: number) => call(trashRoute.GET, { path: `/api/trash/${id}`, token, params: { trashId: String(id) } });
const purgeItem = (token: string, id: number) => call(trashRoute.DELETE, { method: "DELETE", path: `/api/trash/${id}`, token, params: { trashId: String(id) } });
const listIds = async (token: string) => {
  const res = await call(trashesRoute.GET, { path: "/api/trashes", token });
  expect(res.status, res.text).toBe(200);
  return [...res.body.folders, ...res.body.files].map((i: { id: number }) => i.id);
};

// Downloads are served on Node's own response (as server.ts mounts them): a real HTTP server.
let server: Awaited<ReturnType<typeof serveNode>>;
beforeAll(async () => {
  await openDatabase();
  server = await serveNode(downloadById);
}, OPEN_TIMEOUT);
afterAll(() => server.close());
async function download(token: string, versionId: number) {
  const res = await fetch(`${server.url}/api/file/${versionId}/download`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  return { status: res.status, text, body: res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text, headers: res.headers };
}

/** Alice's folder with a secret file; Mallory may browse, read and delete there, not download. */
async function scene() {
  const alice = await createTestUser();
  const mallory = await createTestUser();
  const folder = await createFolder(alice, alice.privateRootId!, unique("Accounts "));
  const secret = await uploadText(alice, folder.id, "salaries.csv", "alice;100000");
  await grantRight(folder.id, mallory.id, { read: true, delete: true });
  const own = await createOwnFolder(mallory);
  return { alice, mallory, folder, secret, own };
}

describe("a trashed file stays its owner's (issue 25)", () => {
  it("the delete right alone cannot restore it into the deleter's folder, nor download it; the owner finds it in their trash", async () => {
    const { alice, mallory, folder, secret, own } = await scene();
    expectError(await download(mallory.token, secret.version.id), 403, "forbidden");
    const id = await trashFile(mallory.token, secret.version.id);
    expect((await readItem(mallory.token, id)).body).toMatchObject({ owner_id: String(alice.id) });

    expectError(await restore(mallory.token, id, { folder_id: own.id }), 403, "forbidden");
    const file = await reloadFile(secret.file.id);
    expect(file).toMatchObject({ folderId: folder.id, trashId: id });
    expect(file.deletedAt).not.toBeNull();
    expectError(await download(mallory.token, secret.version.id), 404, "not_found");

    // The owner's trash holds it; not the deleter's. The deleter cannot purge it either.
    expect(await listIds(alice.token)).toContain(id);
    expect(await listIds(mallory.token)).not.toContain(id);
    expectError(await purgeItem(mallory.token, id), 403, "forbidden");
    expect(await findTrashItem(id)).toBeDefined();

    const back = await restore(alice.token, id);
    expect(back.status, back.text).toBe(200);
    expect(await reloadFile(secret.file.id)).toMatchObject({ folderId: folder.id, deletedAt: null });
    expect((await download(alice.token, secret.version.id)).text).toBe("alice;100000");
    expectError(await download(mallory.token, secret.version.id), 403, "forbidden");
  });

  it("restoring elsewhere needs the rights of a move where it came from; the owner restores anywhere they may write", async () => {
    const { alice, mallory, folder, secret, own } = await scene();
    const id = await trashFile(mallory.token, secret.version.id);
    await grantRight(folder.id, mallory.id, allRightsBut("download"));
    expectError(await restore(mallory.token, id, { folder_id: own.id }), 403, "forbidden");
    await grantRight(folder.id, mallory.id, allRightsBut("share"));
    const moved = await restore(mallory.token, id, { folder_id: own.id });
    expect(moved.status, moved.text).toBe(200);
    expect((await reloadFile(secret.file.id)).folderId).toBe(own.id);

    const second = await uploadText(alice, folder.id, "plan.txt", "v1");
    const other = await trashFile(alice.token, second.version.id);
    const elsewhere = await createOwnFolder(alice);
    expect((await restore(alice.token, other, { folder_id: elsewhere.id })).status).toBe(200);
  });

  it("whoever deleted it may undo it while they keep the delete right there; once it is withdrawn, the item is the owner's alone", async () => {
    const { alice, mallory, folder, secret } = await scene();
    const id = await trashFile(mallory.token, secret.version.id);
    await grantRight(folder.id, mallory.id, { read: true });
    expectError(await readItem(mallory.token, id), 404, "not_found");
    expectError(await restore(mallory.token, id), 404, "not_found");
    expect((await readItem(alice.token, id)).status).toBe(200);
    await grantRight(folder.id, mallory.id, { read: true, write: true, delete: true });
    const undo = await restore(mallory.token, id);
    expect(undo.status, undo.text).toBe(200);
    expect(await reloadFile(secret.file.id)).toMatchObject({ folderId: folder.id, deletedAt: null });
  });

  it("in a company space the item goes to the space's owner, not to the collaborator who deleted it", async () => {
    const admin = await createAdmin();
    const company = await createFolder(admin, 0, unique("Company "));
    const doc = await uploadText(admin, company.id, "board.txt", "minutes");
    const mallory = await createTestUser();
    await grantRight(company.id, mallory.id, { read: true, delete: true });
    const id = await trashFile(mallory.token, doc.version.id);
    expect((await findTrashItem(id))!.ownerId).toBe(admin.id);
    expectError(await restore(mallory.token, id, { folder_id: (await createOwnFolder(mallory)).id }), 403, "forbidden");
    expect(await listIds(mallory.token)).not.toContain(id);
    expect(await listIds(admin.token)).toContain(id);
  });
});

describe("a trashed folder stays its owner's (issue 25)", () => {
  it("the delete right alone cannot restore it elsewhere; a subfolder without download blocks it; it lands in the owner's trash", async () => {
    const { alice, mallory, folder, own } = await scene();
    const sub = await createFolder(alice, folder.id, "Payroll");
    const deep = await createFolder(alice, sub.id, "2025");
    await uploadText(alice, deep.id, "march.csv", "bob;3000");

    const res = await deleteFolder(mallory.token, sub.id);
    expect(res.status, res.text).toBe(200);
    const id = res.body.id as number;
    expect(res.body.owner_id).toBe(String(alice.id));
    expect(await listIds(alice.token)).toContain(id);
    expect(await listIds(mallory.token)).not.toContain(id);

    expectError(await restore(mallory.token, id, { folder_id: own.id }), 403, "forbidden");
    // Every right in the parent, but one folder below withholds download: still no.
    await grantRight(folder.id, mallory.id, allRightsBut("share"));
    await grantRight(deep.id, mallory.id, allRightsBut("download"));
    expectError(await restore(mallory.token, id, { folder_id: own.id }), 403, "forbidden");
    const db = await getDb();
    const [still] = await db.select().from(folders).where(eq(folders.id, sub.id));
    expect(still).toMatchObject({ parentId: folder.id, ownerId: alice.id });
    expect(still.deletedAt).not.toBeNull();

    // With download everywhere it is a move: the subtree takes the owner of its new tree.
    await grantRight(deep.id, mallory.id, allRightsBut("share"));
    const moved = await restore(mallory.token, id, { folder_id: own.id });
    expect(moved.status, moved.text).toBe(200);
    const rows = await db.select().from(folders).where(eq(folders.id, deep.id));
    expect(rows[0]).toMatchObject({ ownerId: mallory.id, deletedAt: null });
    expect((await db.select().from(files).where(eq(files.folderId, deep.id)))[0].deletedAt).toBeNull();
  });
});
