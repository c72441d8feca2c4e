import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as accountRoute from "@/app/api/account/route";
import * as versionsRoute from "@/app/api/file/[fileId]/versions/route";
import { getDb } from "@/db";
import { sessions, userMfa } from "@/db/schema";
import { hashToken } from "@/lib/server/auth/tokens";
import { createTestGroup, createTestUser, type TestUser } from "../../helpers/factories";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { createFolder, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { countQueries, routeWork } from "../../helpers/query-count";

beforeAll(openDatabase, OPEN_TIMEOUT);

// The metadata floor (issue 20, part 4): the statements an authenticated JSON request costs,
// pinned so that later work cannot silently add round trips to every request.

const account = (token: string) => call(accountRoute.GET, { path: "/api/account", token });

/** Counts the statements of `request`, after an uncounted call that warms the caches. */
async function counted(request: () => ReturnType<typeof call>) {
  const warm = await request();
  expect(warm.status, warm.text).toBe(200);
  const { result, statements } = await countQueries(request);
  expect(result.status, result.text).toBe(200);
  return { body: result.body, work: routeWork(statements) };
}

/** A user in two groups, manager of one, with a confirmed one-time-password (or SMS) factor. */
async function userWithRelations(overrides: Parameters<typeof createTestUser>[0] = {}, factor: "otp" | "sms" = "otp"): Promise<TestUser> {
  const user = await createTestUser(overrides);
  const first = await createTestGroup({ members: [user.id] });
  const second = await createTestGroup({ members: [user.id], managers: [user.id] });
  const db = await getDb();
  const enabled = factor === "otp" ? { otpSecret: "x", otpEnabledAt: new Date() } : { smsPhone: "+33612345678", smsEnabledAt: new Date() };
  await db.insert(userMfa).values({ userId: user.id, ...enabled });
  return Object.assign(user, { groupIds: [first.id, second.id] });
}

describe("an authenticated GET /account", () => {
  it("costs two statements: the session with its user, then the groups and factors", async () => {
    const user = await userWithRelations();
    const { body, work } = await counted(() => account(user.token));
    expect(work, work.join("\n")).toHaveLength(2);
    expect(body.groups).toHaveLength(2);
    expect(body.manager_of).toHaveLength(1);
    expect(body.has_mfa_otp).toBe(true);
    expect(body.has_mfa_sms).toBe(false);
    expect(body.has_mfa_yubikey).toBe(false);
  });

  it("still costs two statements when a second factor is demanded of the account", async () => {
    // The factor check rides on the session lookup (authenticate.ts): no query of its own.
    const user = await userWithRelations({ mfaRequired: true }, "sms");
    const { body, work } = await counted(() => account(user.token));
    expect(work, work.join("\n")).toHaveLength(2);
    expect(body.mfa_required).toBe(true);
    expect(body).toMatchObject({ has_mfa_sms: true, has_mfa_otp: false, has_mfa_yubikey: false });
  });

  it("refuses a demanded factor's absence from the same lookup, and accepts once it is set up", async () => {
    const user = await createTestUser({ mfaRequired: true });
    const folder = await createFolder(user, user.privateRootId!, "f");
    const { version } = await uploadText(user, folder.id, "a.txt", "a");
    const versions = () => call(versionsRoute.GET, { path: `/api/file/${version.id}/versions`, token: user.token, params: { fileId: String(version.id) } });
    expectError(await versions(), 401, "mfa_enrollment_required");
    const db = await getDb();
    await db.insert(userMfa).values({ userId: user.id, otpSecret: "x", otpEnabledAt: new Date() });
    expect((await versions()).status).toBe(200);
  });

  it("refuses a revoked token on the very next request (sessions are never cached)", async () => {
    const user = await createTestUser();
    expect((await account(user.token)).status).toBe(200);
    const db = await getDb();
    await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(user.token)));
    expectError(await account(user.token), 401, "unauthorized");
  });

  it("refuses no token and an unknown token", async () => {
    expectError(await call(accountRoute.GET, { path: "/api/account" }), 401, "unauthorized");
    expectError(await account("not-a-token"), 401, "unauthorized");
  });
});

describe("an authenticated GET /file/(id)/versions", () => {
  it("costs the same few statements for 2 versions as for 12", async () => {
    const user = await createTestUser();
    const folder = await createFolder(user, user.privateRootId!, "v");
    let last = await uploadText(user, folder.id, "a.txt", "0");
    const list = () => call(versionsRoute.GET, { path: `/api/file/${last.version.id}/versions`, token: user.token, params: { fileId: String(last.version.id) } });
    last = await uploadText(user, folder.id, "a.txt", "1");
    const few = await counted(list);
    expect(few.body).toHaveLength(2);
    for (let i = 2; i < 12; i++) last = await uploadText(user, folder.id, "a.txt", String(i));
    const many = await counted(list);
    expect(many.body).toHaveLength(12);
    expect(many.work.length, many.work.join("\n")).toBe(few.work.length);
    expect(many.work.length, many.work.join("\n")).toBeLessThanOrEqual(MAX_VERSION_LIST_STATEMENTS);
  });
});

/** Session, file with folder, rights, versions, locks, owner names. */
const MAX_VERSION_LIST_STATEMENTS = 6;
