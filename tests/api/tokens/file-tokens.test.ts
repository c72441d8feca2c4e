import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as tokenRoute from "@/app/api/token/file/[fileId]/[type]/route";
import { getDb } from "@/db";
import { fileTokens, files, users } from "@/db/schema";
import { fileTokenResponse } from "@/lib/contracts/files";
import { hashToken } from "@/lib/server/auth/tokens";
import { createFileToken } from "@/lib/server/tokens/create-file-token";
import { redeemFileToken } from "@/lib/server/tokens/redeem-file-token";
import { createFileScene, ctxIn, inRolledBackTransaction, lockAs, OPEN_TIMEOUT, openDatabase, setConfigIn } from "../../helpers/file-ops-factories";
import { allRightsBut, grantRight } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";

const ask = (token: string, id: number, type: string) =>
  call(tokenRoute.POST, { method: "POST", path: `/api/token/file/${id}/${type}`, token, params: { fileId: String(id), type } });

async function tokenRow(token: string) {
  const db = await getDb();
  const [row] = await db.select().from(fileTokens).where(eq(fileTokens.tokenHash, hashToken(token)));
  return row;
}

beforeAll(openDatabase, OPEN_TIMEOUT);

describe("POST /api/token/file/(fileId)/(type)", () => {
  it("gives a 15-minute download token, stored only as a hash, that redeems to the version", async () => {
    const { owner, folder, file, version } = await createFileScene();
    const res = await ask(owner.token, version.id, "download");
    expect(res.status, res.text).toBe(200);
    const { token } = fileTokenResponse.strict().parse(res.body);
    const row = await tokenRow(token);
    expect(row).toMatchObject({ versionId: version.id, userId: owner.id, type: "download" });
    expect(row.tokenHash).not.toBe(token);
    expect(row.expiresAt.getTime() - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(row.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    const redeemed = await redeemFileToken(await getDb(), token, "download");
    expect(redeemed.version.id).toBe(version.id);
    expect(redeemed.file.id).toBe(file.id);
    expect(redeemed.folder.id).toBe(folder.id);
    expect(redeemed.user.id).toBe(owner.id);
  });

  it("needs download for download, read for preview, edit for edit", async () => {
    const { other, folder, version } = await createFileScene();
    await grantRight(folder.id, other.id, allRightsBut("download"));
    expectError(await ask(other.token, version.id, "download"), 403, "forbidden");
    expect((await ask(other.token, version.id, "preview")).status).toBe(200);
    await grantRight(folder.id, other.id, allRightsBut("read"));
    expectError(await ask(other.token, version.id, "preview"), 403, "forbidden");
    expect((await ask(other.token, version.id, "download")).status).toBe(200);
    await grantRight(folder.id, other.id, allRightsBut("edit"));
    expectError(await ask(other.token, version.id, "edit"), 403, "forbidden");
  });

  it("gives edit tokens only with the platform's edit feature, and not on a file someone else locked", async () => {
    const { owner, other, file, version } = await createFileScene();
    expectError(await ask(owner.token, version.id, "edit"), 403, "forbidden");
    await inRolledBackTransaction(async (tx) => {
      await setConfigIn(tx, { features: { edit: true } });
      const { token } = await createFileToken(ctxIn(tx, owner), version.id, "edit");
      expect((await redeemFileToken(tx, token, "edit")).version.id).toBe(version.id);
    });
    await lockAs(other, file.id);
    await inRolledBackTransaction(async (tx) => {
      await setConfigIn(tx, { features: { edit: true } });
      await expect(createFileToken(ctxIn(tx, owner), version.id, "edit")).rejects.toMatchObject({ code: "locked", status: 423 });
    });
  });

  it("answers 403 to another user, 404 for an unknown file, 400 for an unknown use", async () => {
    const { owner, other, version } = await createFileScene();
    expectError(await ask(other.token, version.id, "download"), 403);
    expectError(await ask(owner.token, 2_000_000_000, "download"), 404, "not_found");
    expectError(await ask(owner.token, version.id, "video"), 400, "invalid_request");
  });

  it("clears the caller's expired tokens on the way", async () => {
    const { owner, version } = await createFileScene();
    const { token: old } = (await ask(owner.token, version.id, "download")).body;
    const db = await getDb();
    await db.update(fileTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(fileTokens.tokenHash, hashToken(old)));
    await ask(owner.token, version.id, "preview");
    expect(await tokenRow(old)).toBeUndefined();
  });

  it("requires a valid token", async () => {
    const { version } = await createFileScene();
    await expectAuthRequired(tokenRoute.POST, { method: "POST", params: { fileId: String(version.id), type: "download" } });
  });
});

describe("redeemFileToken", () => {
  it("refuses unknown, other-use and expired tokens (403)", async () => {
    const { owner, version } = await createFileScene();
    const db = await getDb();
    const { token } = (await ask(owner.token, version.id, "preview")).body;
    await expect(redeemFileToken(db, "nope", "preview")).rejects.toMatchObject({ status: 403 });
    await expect(redeemFileToken(db, token, "download")).rejects.toMatchObject({ status: 403 });
    await db.update(fileTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(fileTokens.tokenHash, hashToken(token)));
    await expect(redeemFileToken(db, token, "preview")).rejects.toMatchObject({ status: 403 });
  });

  it("refuses a user who lost the right (403) or the account (403), and a trashed file (404)", async () => {
    const { owner, other, folder, file, version } = await createFileScene();
    await grantRight(folder.id, other.id, { download: true });
    const { token } = (await ask(other.token, version.id, "download")).body;
    const db = await getDb();
    expect((await redeemFileToken(db, token, "download")).user.id).toBe(other.id);
    await grantRight(folder.id, other.id, allRightsBut("download"));
    await expect(redeemFileToken(db, token, "download")).rejects.toMatchObject({ status: 403 });

    const { token: mine } = (await ask(owner.token, version.id, "download")).body;
    await db.update(files).set({ deletedAt: new Date() }).where(eq(files.id, file.id));
    await expect(redeemFileToken(db, mine, "download")).rejects.toMatchObject({ status: 404 });
    await db.update(files).set({ deletedAt: null }).where(eq(files.id, file.id));
    await db.update(users).set({ active: false }).where(eq(users.id, owner.id));
    await expect(redeemFileToken(db, mine, "download")).rejects.toMatchObject({ status: 403 });
  });
});
