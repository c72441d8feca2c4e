import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as fileRoute from "@/app/api/file/[fileId]/route";
import * as replaceRoute from "@/app/api/file/[fileId]/upload/route";
import * as lockRoute from "@/app/api/lock/[fileId]/route";
import { getDb } from "@/db";
import { fileVersions } from "@/db/schema";
import { createFileScene, createOwnFolder, OPEN_TIMEOUT, openDatabase, reloadFile } from "../../helpers/file-ops-factories";
import { allRightsBut, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";

const md5 = (text: string) => createHash("md5").update(text).digest("hex");

async function versionRow(id: number) {
  const db = await getDb();
  const [row] = await db.select().from(fileVersions).where(eq(fileVersions.id, id));
  return row;
}

/** `holder` locks the file through the route; `blocked` has every right on the folder but not the lock. */
async function lockedScene() {
  const { owner: blocked, other: holder, folder, file, version } = await createFileScene({ text: "original" });
  await grantRight(folder.id, holder.id, allRightsBut());
  const res = await call(lockRoute.PUT, { method: "PUT", token: holder.token, params: { fileId: String(version.id) } });
  expect(res.status, res.text).toBe(200);
  const dest = await createOwnFolder(blocked);
  await grantRight(dest.id, holder.id, allRightsBut());
  return { blocked, holder, folder, file, version, dest };
}

const update = (token: string, id: number, body: unknown) => call(fileRoute.PUT, { method: "PUT", token, params: { fileId: String(id) }, body });
const remove = (token: string, id: number) => call(fileRoute.DELETE, { method: "DELETE", token, params: { fileId: String(id) } });

beforeAll(openDatabase, OPEN_TIMEOUT);

describe("a file locked by another user", () => {
  it("refuses rename, move, delete and a new version with 423, leaving the file unchanged", async () => {
    const { blocked, folder, file, version, dest } = await lockedScene();
    expectError(await update(blocked.token, version.id, { name: "renamed.txt" }), 423, "locked");
    expectError(await update(blocked.token, version.id, { parent_id: dest.id }), 423, "locked");
    expectError(await remove(blocked.token, version.id), 423, "locked");
    await expect(uploadText(blocked, folder.id, file.name, "new content")).rejects.toMatchObject({ code: "locked", status: 423 });
    expect(await reloadFile(file.id)).toMatchObject({ name: file.name, folderId: folder.id, deletedAt: null, currentVersionId: version.id });
  });

  it("refuses content replacement (PUT /file/(id)/upload) with 423, and lets the holder replace", async () => {
    const { blocked, holder, version } = await lockedScene();
    const send = (token: string) =>
      call(replaceRoute.PUT, { method: "PUT", token, params: { fileId: String(version.id) }, rawBody: "replaced", headers: { "content-type": "application/octet-stream" } });
    expectError(await send(blocked.token), 423, "locked");
    expect((await versionRow(version.id)).md5).toBe(md5("original"));
    const ok = await send(holder.token);
    expect(ok.status, ok.text).toBeLessThan(300);
    expect((await versionRow(version.id)).md5).toBe(md5("replaced"));
  });

  it("lets the holder rename, add a version, move and delete it", async () => {
    const { holder, folder, file, version, dest } = await lockedScene();
    expect((await update(holder.token, version.id, { name: "mine.txt" })).status).toBe(200);
    const next = await uploadText(holder, folder.id, "mine.txt", "v2");
    expect(next.file.id).toBe(file.id);
    expect((await update(holder.token, version.id, { parent_id: dest.id })).status).toBe(200);
    expect((await remove(holder.token, version.id)).status).toBe(200);
    expect((await reloadFile(file.id)).deletedAt).not.toBeNull();
  });
});
