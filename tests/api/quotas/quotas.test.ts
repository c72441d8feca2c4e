import { beforeAll, describe, expect, it } from "vitest";
import * as quotasRoute from "@/app/api/quotas/route";
import * as userQuotaRoute from "@/app/api/user/[userId]/quota/route";
import { quotasResponse, userQuotaResponse } from "@/lib/contracts/folders";
import { AppError } from "@/lib/server/errors";
import { createAdmin, createTestUser } from "../../helpers/factories";
import { createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { createManagedTeam } from "../users/fixtures";
import { OPEN_TIMEOUT, openDatabase, putFolder } from "../folders/fixtures";

beforeAll(openDatabase, OPEN_TIMEOUT);

const quotas = (token: string, query: Record<string, string | number> = {}) => call(quotasRoute.GET, { path: "/api/quotas", token, query });
const userQuota = (token: string, id: number) => call(userQuotaRoute.GET, { path: `/api/user/${id}/quota`, params: { userId: String(id) }, token });

describe("GET /api/quotas", () => {
  it("answers the platform, user and folder quotas with the bytes used, versions included", async () => {
    const admin = await createAdmin();
    const user = await createTestUser({ quota: 1000 });
    const top = await createFolder(user, user.privateRootId!, "Top");
    const child = await createFolder(user, top.id, "Child");
    await putFolder(admin.token, top.id, { quota: 500 });
    await uploadText(user, child.id, "a.txt", "12345");
    await uploadText(user, child.id, "a.txt", "1234567");

    const res = await quotas(user.token, { folder_id: child.id });
    expect(res.status, res.text).toBe(200);
    const body = quotasResponse.strict().parse(res.body);
    expect(body.user).toEqual({ quota: 1000, used: 12 });
    expect(body.folder).toEqual({ quota: 500, used: 12, folder: top.id });
    expect(body.platform.used).toBeGreaterThanOrEqual(12);

    const none = quotasResponse.parse((await quotas(user.token)).body);
    expect(none.folder).toBeNull();
    // The private root is unlimited (0): no quota applies there.
    const own = quotasResponse.parse((await quotas(user.token, { folder_id: user.privateRootId! })).body);
    expect(own.folder).toEqual({ quota: null, used: 12, folder: null });
    const unlimited = await createTestUser();
    expect(quotasResponse.parse((await quotas(unlimited.token)).body).user).toEqual({ quota: null, used: 0 });
  });

  it("answers 404 for a folder the caller may not browse, 400 for a bad id, and requires a token", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const folder = await createFolder(owner, owner.privateRootId!, "F");
    expectError(await quotas(other.token, { folder_id: folder.id }), 404, "not_found");
    await grantRight(folder.id, other.id, { browse: true });
    expect((await quotas(other.token, { folder_id: folder.id })).status).toBe(200);
    expectError(await quotas(other.token, { folder_id: "x" }), 400, "invalid_request");
    await expectAuthRequired(quotasRoute.GET, { path: "/api/quotas" });
  });
});

describe("folder quotas on uploads", () => {
  it("refuses with 507 an upload that would exceed the nearest folder quota, counting every version", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    const limited = await createFolder(user, user.privateRootId!, "Limited");
    const inner = await createFolder(user, limited.id, "Inner");
    await putFolder(admin.token, limited.id, { quota: 10 });
    await uploadText(user, inner.id, "a.txt", "123456");
    const refused = uploadText(user, inner.id, "a.txt", "12345");
    await expect(refused).rejects.toBeInstanceOf(AppError);
    await expect(uploadText(user, limited.id, "b.txt", "12345")).rejects.toMatchObject({ code: "insufficient_storage", status: 507 });
    await uploadText(user, limited.id, "c.txt", "1234");
    // A subfolder with its own quota of 0 is unlimited, whatever its parent says.
    await putFolder(admin.token, inner.id, { quota: 0 });
    await uploadText(user, inner.id, "big.txt", "x".repeat(50));
  });
});

describe("GET /api/user/(userId)/quota", () => {
  it("answers {quota, used} to the user, administrators and their managers", async () => {
    const { manager, member } = await createManagedTeam();
    const admin = await createAdmin();
    await uploadText(member, member.privateRootId!, "f.txt", "abc");
    for (const token of [member.token, admin.token, manager.token]) {
      const res = await userQuota(token, member.id);
      expect(res.status, res.text).toBe(200);
      expect(userQuotaResponse.strict().parse(res.body)).toEqual({ quota: null, used: 3 });
    }
  });

  it("refuses anyone else with 403, even for unknown ids; 404 for administrators", async () => {
    const { member } = await createManagedTeam();
    const other = await createTestUser();
    const otherManager = await createTestUser({ role: 4 });
    expectError(await userQuota(other.token, member.id), 403, "forbidden");
    expectError(await userQuota(otherManager.token, member.id), 403, "forbidden");
    expectError(await userQuota(other.token, 2_000_000_000), 403, "forbidden");
    const admin = await createAdmin();
    expectError(await userQuota(admin.token, 2_000_000_000), 404, "not_found");
    await expectAuthRequired(userQuotaRoute.GET, { params: { userId: String(member.id) } });
  });
});
