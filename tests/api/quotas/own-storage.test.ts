import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as storageRoute from "@/app/api/account/storage/route";
import { getDb } from "@/db";
import { rights } from "@/db/schema";
import { ownStorageResponse } from "@/lib/contracts/storage";
import { createTestUser } from "../../helpers/factories";
import { createFolder, grantRight, uploadText } from "../../helpers/files";
import { call } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { OPEN_TIMEOUT, openDatabase } from "../folders/fixtures";

beforeAll(openDatabase, OPEN_TIMEOUT);

const storage = (token: string) => call(storageRoute.GET, { path: "/api/account/storage", token });

describe("GET /api/account/storage", () => {
  it("answers the caller's bytes, quota and largest folders, versions included, biggest first", async () => {
    const me = await createTestUser({ quota: 1000 });
    const big = await createFolder(me, me.privateRootId!, "Big");
    const small = await createFolder(me, me.privateRootId!, "Small");
    await uploadText(me, big.id, "a.txt", "x".repeat(20));
    await uploadText(me, big.id, "a.txt", "x".repeat(10));
    await uploadText(me, small.id, "b.txt", "12345");

    const res = await storage(me.token);
    expect(res.status, res.text).toBe(200);
    const body = ownStorageResponse.strict().parse(res.body);
    expect(body.quota).toBe(1000);
    expect(body.used).toBe(35);
    expect(body.folders).toEqual([
      { id: big.id, name: "Big", size: 30 },
      { id: small.id, name: "Small", size: 5 },
    ]);
  });

  it("shows nobody else's folders, and leaves out a folder the caller may no longer browse (its bytes still count)", async () => {
    const me = await createTestUser();
    const owner = await createTestUser();
    const theirs = await createFolder(owner, owner.privateRootId!, "Theirs");
    await uploadText(owner, theirs.id, "owner.txt", "owner's bytes, not mine");
    const right = await grantRight(theirs.id, me.id, { browse: true, read: true, write: true });
    await uploadText(me, theirs.id, "mine.txt", "1234567");

    const shared = ownStorageResponse.parse((await storage(me.token)).body);
    expect(shared).toMatchObject({ quota: null, used: 7, folders: [{ id: theirs.id, name: "Theirs", size: 7 }] });
    const ownersView = ownStorageResponse.parse((await storage(owner.token)).body);
    expect(ownersView.folders).toEqual([{ id: theirs.id, name: "Theirs", size: "owner's bytes, not mine".length }]);

    await (await getDb()).delete(rights).where(eq(rights.id, right.id));
    const after = ownStorageResponse.parse((await storage(me.token)).body);
    expect(after).toEqual({ quota: null, used: 7, folders: [] });
  });

  it("needs a token (401 without one, with an unknown or an expired one)", async () => {
    await expectAuthRequired(storageRoute.GET, { path: "/api/account/storage" });
  });
});
