import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as depositsRoute from "@/app/api/ulink/[ulinkId]/deposits/route";
import * as oneRoute from "@/app/api/ulink/[ulinkId]/route";
import * as uploadRoute from "@/app/api/ulink/key/[key]/upload/route";
import { getDb } from "@/db";
import { files, ulinkDeposits, uploads } from "@/db/schema";
import { depositorGroupListResponse, publicUlinkResponse, ulinkResponse } from "@/lib/contracts/ulinks";
import { createAdmin, createExpiredToken, createTestUser } from "../../helpers/factories";
import { createFileScene } from "../../helpers/file-ops-factories";
import { call, expectError } from "../../helpers/http";
import { listBlobIds, md5, multipartBody, type Part } from "../../helpers/upload-factories";
import { byKey, createLink } from "./ulink-helpers";

// Drop links that ask who deposits (issue 29): the link's `depositor` option, the form's parts
// `depositorName` / `depositorEmail`, and the owner's GET /ulink/(id)/deposits.

function deposit(key: string, name: string, data: string, who: { name?: string; email?: string } = {}, extra: Part[] = []) {
  const parts: Part[] = [...extra];
  if (who.name !== undefined) parts.push({ name: "depositorName", value: who.name });
  if (who.email !== undefined) parts.push({ name: "depositorEmail", value: who.email });
  // The file part first, as browsers send it after the text parts only when told: both orders must hold.
  const { body, contentType } = multipartBody([{ name: "targetFile", filename: name, data: Buffer.from(data) }, ...parts]);
  return call(uploadRoute.POST, { method: "POST", params: { key }, rawBody: body, headers: { "content-type": contentType, "x-forwarded-for": "198.51.100.9" } });
}

const listDeposits = (token: string | null, ulinkId: number) => call(depositsRoute.GET, { method: "GET", token, params: { ulinkId: String(ulinkId) } });

async function liveFilesIn(folderId: number) {
  const db = await getDb();
  return (await db.select().from(files).where(eq(files.folderId, folderId))).filter((f) => f.deletedAt === null).map((f) => f.name);
}

async function scene(depositor?: string) {
  const { owner, folder } = await createFileScene();
  const link = await createLink(owner, { folder_id: folder.id, name: "Candidates", ...(depositor ? { depositor } : {}) });
  return { owner, folder, link };
}

describe("drop links that ask who deposits", () => {
  it("defaults to none, and the option is set at creation, changed by PUT and shown to visitors", async () => {
    const { owner, link } = await scene();
    expect(link.depositor).toBe("none");
    const res = await call(oneRoute.PUT, { method: "PUT", token: owner.token, params: { ulinkId: String(link.id) }, body: { depositor: "required" } });
    expect(res.status, res.text).toBe(200);
    expect(ulinkResponse.parse(res.body).depositor).toBe("required");
    const visible = await byKey(link.key);
    expect(publicUlinkResponse.strict().parse(visible.body).depositor).toBe("required");
    expectError(await call(oneRoute.PUT, { method: "PUT", token: owner.token, params: { ulinkId: String(link.id) }, body: { depositor: "always" } }), 400, "invalid_request");
  });

  it("required: a deposit without name or email is a 400 that leaves no file, no deposit and no blob", async () => {
    const { folder, link } = await scene("required");
    const blobs = await listBlobIds();
    for (const who of [{}, { name: "Ada Lovelace" }, { email: "ada@example.test" }, { name: "  ", email: "ada@example.test" }]) {
      const res = await deposit(link.key, "cv.pdf", "%PDF-1.4 cv", who);
      expectError(res, 400, "invalid_request");
    }
    expect(await liveFilesIn(folder.id)).not.toContain("cv.pdf");
    const db = await getDb();
    expect(await db.select().from(ulinkDeposits).where(eq(ulinkDeposits.ulinkId, link.id))).toHaveLength(0);
    expect([...(await listBlobIds())].filter((id) => !blobs.has(id))).toEqual([]);
  });

  it("required: a chunked deposit missing the depositor is refused at its first chunk and keeps no upload", async () => {
    const { link } = await scene("required");
    const chunk: Part[] = [
      { name: "chunk", value: "0" },
      { name: "chunks", value: "2" },
      { name: "chunksSize", value: "4" },
      { name: "fileSize", value: "6" },
    ];
    expectError(await deposit(link.key, "big.bin", "abcd", {}, chunk), 400, "invalid_request");
    const db = await getDb();
    expect(await db.select().from(uploads).where(eq(uploads.ulinkId, link.id))).toHaveLength(0);
    // The same chunk with the depositor is taken.
    const taken = await deposit(link.key, "big.bin", "abcd", { name: "Ada", email: "ada@example.test" }, chunk);
    expect(taken.status, taken.text).toBe(200);
    expect(await db.select().from(uploads).where(eq(uploads.ulinkId, link.id))).toHaveLength(1);
  });

  it("refuses an invalid email, control and bidirectional characters, and overlong names (400)", async () => {
    const { link } = await scene("optional");
    for (const who of [
      { name: "Ada", email: "not-an-email" },
      { name: "Ada\u202Eevil", email: "ada@example.test" },
      { name: "Ada\nLovelace", email: "ada@example.test" },
      { name: "A".repeat(201), email: "ada@example.test" },
      { name: "Ada", email: `${"a".repeat(250)}@example.test` },
    ]) {
      expectError(await deposit(link.key, "x.txt", "x", who), 400, "invalid_request");
    }
  });

  it("records the depositor with the file and the owner lists deposits grouped by depositor", async () => {
    const { owner, folder, link } = await scene("required");
    expect((await deposit(link.key, "cv.pdf", "%PDF-1.4 cv", { name: " Ada Lovelace ", email: "ada@example.test" })).status).toBe(201);
    expect((await deposit(link.key, "letter.pdf", "%PDF-1.4 letter", { name: "Ada Lovelace", email: "ADA@example.test" })).status).toBe(201);
    const res = await deposit(link.key, "notes.txt", "notes", { name: "Alan Turing", email: "alan@example.test" });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ size: 5, hash: md5(Buffer.from("notes")) });
    expect((await liveFilesIn(folder.id)).sort()).toEqual(expect.arrayContaining(["cv.pdf", "letter.pdf", "notes.txt"]));

    const listed = await listDeposits(owner.token, link.id);
    expect(listed.status, listed.text).toBe(200);
    const page = depositorGroupListResponse.strict().parse(listed.body);
    expect(page.nb_total_objects).toBe(2);
    expect(page.objects.map((g) => [g.name, g.email, g.files.map((f) => f.name)])).toEqual([
      ["Alan Turing", "alan@example.test", ["notes.txt"]],
      ["Ada Lovelace", "ADA@example.test", ["letter.pdf", "cv.pdf"]],
    ]);
    expect(page.objects[1].files[0]).toMatchObject({ size: 15 });
  });

  it("optional: a deposit with or without a depositor both land; none: the parts are ignored", async () => {
    const optional = await scene("optional");
    expect((await deposit(optional.link.key, "a.txt", "a")).status).toBe(201);
    expect((await deposit(optional.link.key, "b.txt", "b", { name: "Grace Hopper" })).status).toBe(201);
    const groups = depositorGroupListResponse.parse((await listDeposits(optional.owner.token, optional.link.id)).body).objects;
    expect(groups.map((g) => [g.name, g.email])).toEqual([
      ["Grace Hopper", null],
      [null, null],
    ]);

    const none = await scene();
    expect((await deposit(none.link.key, "c.txt", "c", { name: "Ignored", email: "not-an-email" })).status).toBe(201);
    const [group] = depositorGroupListResponse.parse((await listDeposits(none.owner.token, none.link.id)).body).objects;
    expect(group).toMatchObject({ name: null, email: null, files: [{ name: "c.txt" }] });
  });

  it("only the link's owner (or an administrator) lists its deposits: another user 404, no token 401, expired token 401", async () => {
    const { owner, link } = await scene("optional");
    expect((await deposit(link.key, "a.txt", "a", { name: "Ada", email: "ada@example.test" })).status).toBe(201);
    const stranger = await createTestUser();
    expectError(await listDeposits(stranger.token, link.id), 404, "not_found");
    expectError(await listDeposits(null, link.id), 401);
    expectError(await listDeposits(await createExpiredToken(owner.id), link.id), 401);
    const admin = await createAdmin();
    expect((await listDeposits(admin.token, link.id)).status).toBe(200);
    expectError(await listDeposits(owner.token, 2_000_000_000), 404, "not_found");
  });
});
