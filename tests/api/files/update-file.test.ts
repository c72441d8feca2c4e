import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as fileRoute from "@/app/api/file/[fileId]/route";
import { getDb } from "@/db";
import { folders } from "@/db/schema";
import { fileResponse } from "@/lib/contracts/files";
import { createFileScene, createOwnFolder, latestLog, OPEN_TIMEOUT, openDatabase, reloadFile } from "../../helpers/file-ops-factories";
import { allRightsBut, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";

const update = (token: string, id: number, body: unknown, method = "PUT") =>
  call(method === "PUT" ? fileRoute.PUT : fileRoute.PATCH, { method, path: `/api/file/${id}`, token, body, params: { fileId: String(id) } });

beforeAll(openDatabase, OPEN_TIMEOUT);

describe("PUT /api/file/(fileId): rename", () => {
  it("renames the file, logs it, and accepts PATCH", async () => {
    const { owner, file, version } = await createFileScene();
    const res = await update(owner.token, version.id, { name: "renamed.txt" });
    expect(res.status, res.text).toBe(200);
    expect(fileResponse.parse(res.body)).toMatchObject({ id: version.id, name: "renamed.txt" });
    expect((await reloadFile(file.id)).name).toBe("renamed.txt");
    expect(await latestLog("file", version.id, "ADMLLOG_UPDATE")).toMatchObject({ userId: owner.id, object: "renamed.txt" });
    const patched = await update(owner.token, version.id, { name: "Patched.txt" }, "PATCH");
    expect(patched.body.name).toBe("Patched.txt");
  });

  it("allows a change of case only, and answers 409 when another file has the name", async () => {
    const { owner, folder, file, version } = await createFileScene({ name: "a.txt" });
    expect((await update(owner.token, version.id, { name: "A.txt" })).body.name).toBe("A.txt");
    await uploadText(owner, folder.id, "b.txt", "b");
    expectError(await update(owner.token, version.id, { name: "B.TXT" }), 409, "conflict");
    expectError(await update(owner.token, version.id, { name: "../x" }), 400, "invalid_name");
    expect((await reloadFile(file.id)).name).toBe("A.txt");
  });

  it("needs edit (403); another user gets 403 and the name is unchanged", async () => {
    const { other, folder, file, version } = await createFileScene();
    expectError(await update(other.token, version.id, { name: "x.txt" }), 403);
    await grantRight(folder.id, other.id, allRightsBut("edit"));
    expectError(await update(other.token, version.id, { name: "x.txt" }), 403, "forbidden");
    await grantRight(folder.id, other.id, { edit: true });
    expect((await update(other.token, version.id, { name: "x.txt" })).status).toBe(200);
    expect((await reloadFile(file.id)).name).toBe("x.txt");
  });

  it("answers 404 for an unknown file and requires a valid token", async () => {
    const { owner, version } = await createFileScene();
    expectError(await update(owner.token, 2_000_000_000, { name: "x" }), 404, "not_found");
    await expectAuthRequired(fileRoute.PUT, { method: "PUT", params: { fileId: String(version.id) }, body: { name: "x.txt" } });
  });
});

describe("PUT /api/file/(fileId): move", () => {
  it("moves the file (and renames it in the same request)", async () => {
    const { owner, file, version } = await createFileScene();
    const dest = await createOwnFolder(owner);
    const res = await update(owner.token, version.id, { parent_id: dest.id, name: "moved.txt" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ parent_id: dest.id, name: "moved.txt" });
    expect(await reloadFile(file.id)).toMatchObject({ folderId: dest.id, name: "moved.txt" });
  });

  it("needs read, download, edit and delete in the source and write in the destination", async () => {
    const { owner, other, folder, file, version } = await createFileScene();
    const dest = await createOwnFolder(owner);
    await grantRight(dest.id, other.id, { write: true });
    for (const missing of ["read", "download", "edit", "delete"] as const) {
      await grantRight(folder.id, other.id, allRightsBut(missing));
      expectError(await update(other.token, version.id, { parent_id: dest.id }), 403, "forbidden");
    }
    await grantRight(folder.id, other.id, allRightsBut());
    await grantRight(dest.id, other.id, allRightsBut("write"));
    expectError(await update(other.token, version.id, { parent_id: dest.id }), 403, "forbidden");
    expect((await reloadFile(file.id)).folderId).toBe(folder.id);
    await grantRight(dest.id, other.id, { write: true });
    expect((await update(other.token, version.id, { parent_id: dest.id })).status).toBe(200);
    expect((await reloadFile(file.id)).folderId).toBe(dest.id);
  });

  it("answers 409 on a name clash, 404 for a missing destination, 507 over the destination's quota", async () => {
    const { owner, file, version } = await createFileScene({ text: "12345" });
    const dest = await createOwnFolder(owner);
    await uploadText(owner, dest.id, file.name, "other");
    expectError(await update(owner.token, version.id, { parent_id: dest.id }), 409, "conflict");
    expectError(await update(owner.token, version.id, { parent_id: 2_000_000_000 }), 404, "not_found");
    const small = await createOwnFolder(owner);
    const db = await getDb();
    await db.update(folders).set({ quota: 4 }).where(eq(folders.id, small.id));
    expectError(await update(owner.token, version.id, { parent_id: small.id }), 507, "insufficient_storage");
    await db.update(folders).set({ quota: 5 }).where(eq(folders.id, small.id));
    expect((await update(owner.token, version.id, { parent_id: small.id })).status).toBe(200);
  });
});
