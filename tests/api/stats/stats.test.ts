import { sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import * as authRoute from "@/app/api/auth/route";
import * as statsRoute from "@/app/api/stats/route";
import { getDb, rows, type Tx } from "@/db";
import { fileVersions, files, logs, sessions, signatureRequests, statsSamples, users, workflowInstances } from "@/db/schema";
import { ALL_STATS, STORAGE_TYPES, statsResponse, STATS_MASK, type StatsDay } from "@/lib/contracts/stats";
import { hashToken, newToken } from "@/lib/server/auth/tokens";
import { forgetCachedStats, getStats } from "@/lib/server/stats/get-stats";
import { sampleStats, sampleStatsJob, utcDay } from "@/lib/server/stats/sample-stats";
import { getBlobStore } from "@/lib/storage";
import { createAdmin, createTestGroup, createTestUser, unique } from "../../helpers/factories";
import { ctxIn, inRolledBackTransaction, OPEN_TIMEOUT, openDatabase, setConfigIn } from "../../helpers/file-ops-factories";
import { createFolder, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { trashFile } from "../trash/fixtures";

beforeAll(openDatabase, OPEN_TIMEOUT);

// Figures must be fresh in every test: caching is tested on its own below, by lowering the threshold.
process.env.STATS_CACHE_THRESHOLD_MS = "1000000";
afterEach(() => {
  process.env.STATS_CACHE_THRESHOLD_MS = "1000000";
  delete process.env.STATS_CACHE_FRESHEN_SECONDS;
  forgetCachedStats();
});

const stats = (token: string, mask: number | string) => call(statsRoute.GET, { path: "/api/stats", token, query: { mask } });

async function statsOk(token: string, mask: number) {
  const res = await stats(token, mask);
  expect(res.status, res.text).toBe(200);
  return statsResponse.strict().parse(res.body);
}

const one = <T>(list: T[], pred: (x: T) => boolean) => {
  const found = list.filter(pred);
  expect(found).toHaveLength(1);
  return found[0];
};

/** Other test files upload and delete in parallel: platform totals are compared inside one snapshot. */
async function inSnapshot(fn: (tx: Tx) => Promise<void>) {
  await inRolledBackTransaction(async (tx) => {
    await tx.execute(sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`);
    await fn(tx);
  });
}

const sumOf = async (tx: Tx, query: ReturnType<typeof sql>) => Number(rows<{ n: string }>(await tx.execute(query))[0].n);

describe("GET /api/stats: who may read", () => {
  it("requires a token and refuses users, managers and externals", async () => {
    await expectAuthRequired(statsRoute.GET, { path: "/api/stats", query: { mask: 1 } });
    await expectAuthRequired(statsRoute.GET, { path: "/api/stats", query: { mask: STATS_MASK.stats } });
    const manager = await createTestUser({ role: 4 });
    await createTestGroup({ managers: [manager.id] });
    for (const who of [await createTestUser(), manager, await createTestUser({ role: 1 })]) {
      for (const mask of [ALL_STATS, STATS_MASK.stats, STATS_MASK.storage]) expectError(await stats(who.token, mask), 403, "forbidden");
    }
  });

  it("refuses a mask outside the contract's seven bits", async () => {
    const admin = await createAdmin();
    for (const mask of [0, 128, -1, "abc", 1.5]) expectError(await stats(admin.token, mask), 400, "invalid_request");
  });

  it("answers only the parts the mask asks for (mask absent = 1)", async () => {
    const admin = await createAdmin();
    const res = await call(statsRoute.GET, { path: "/api/stats", token: admin.token });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["expire", "storage"]);
    expect(Object.keys(res.body.storage)).toEqual(["main"]);
    expect(Object.keys((await statsOk(admin.token, STATS_MASK.visits)) as object).sort()).toEqual(["expire", "visits"]);
    expect(Object.keys(await statsOk(admin.token, STATS_MASK.slots)).sort()).toEqual(["expire", "slots"]);
    expect(Object.keys(await statsOk(admin.token, STATS_MASK.stats)).sort()).toEqual(["docsigning", "expire", "stats"]);
    expect(Object.keys((await statsOk(admin.token, STATS_MASK.trashes | STATS_MASK.private)).storage!).sort()).toEqual(["private", "trashes"]);
    expect(Object.keys((await statsOk(admin.token, STATS_MASK.versions)).storage!)).toEqual(["versions"]);
    const all = await statsOk(admin.token, ALL_STATS);
    expect(Object.keys(all).sort()).toEqual(["docsigning", "expire", "slots", "stats", "storage", "visits"]);
    expect(Object.keys(all.storage!).sort()).toEqual(["main", "private", "trashes", "versions"]);
    // Fresh figures: they expire now.
    expect(Math.abs(all.expire - Date.now() / 1000)).toBeLessThan(5);
  });
});

describe("GET /api/stats: the figures", () => {
  it("mask 1: used is the sum of every version, against the platform quota or the disk", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    await uploadText(user, user.privateRootId!, "a.txt", "x".repeat(1000));
    await inSnapshot(async (tx) => {
      const ctx = ctxIn(tx, admin);
      const used = await sumOf(tx, sql`SELECT coalesce(sum(size), 0) AS n FROM file_versions`);
      expect(used).toBeGreaterThanOrEqual(1000);
      const main = (await getStats(ctx, { mask: 1 })).storage!.main!;
      expect(main.used).toBe(used);
      expect(main.quota).toBeNull();
      if ((await getBlobStore().freeBytes()) === null) {
        // An object store (TEST_S3=1) has no capacity to report: unknown, not "0 free, 100 % used".
        expect(main).toEqual({ used, free: null, quota: null, percent: null });
      } else {
        expect(main.free).toBeGreaterThan(0);
        expect(main.percent).toBeCloseTo((used / (used + main.free!)) * 100, 1);
      }

      await setConfigIn(tx, { quota: used * 4 });
      expect((await getStats(ctx, { mask: 1 })).storage!.main).toEqual({ used, free: used * 3, quota: used * 4, percent: 25 });
    });
  });

  it("mask 2: each user's trash weighs the versions it holds, whole files and versions trashed alone", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    const a = await uploadText(user, user.privateRootId!, "a.txt", "a".repeat(10));
    const b1 = await uploadText(user, user.privateRootId!, "b.txt", "b".repeat(20));
    await uploadText(user, user.privateRootId!, "b.txt", "b".repeat(25));
    await uploadText(user, user.privateRootId!, "c.txt", "c".repeat(40));
    await trashFile(user.token, a.version.id);
    await trashFile(user.token, b1.version.id, "none");
    const body = await statsOk(admin.token, STATS_MASK.trashes);
    const mine = one(body.storage!.trashes!.users, (u) => u.id === String(user.id));
    expect(mine).toEqual({ id: String(user.id), user: `Test ${user.login}`, login: user.login, size: 10 + 20 });
    expect(body.storage!.trashes!.total).toBeGreaterThanOrEqual(30);
    // Someone with nothing in the trash is not listed.
    const other = await createTestUser();
    await uploadText(other, other.privateRootId!, "kept.txt", "k");
    expect((await statsOk(admin.token, STATS_MASK.trashes)).storage!.trashes!.users.some((u) => u.id === String(other.id))).toBe(false);
  });

  it("mask 64: each private space weighs every version of the files under it, subfolders included", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    const sub = await createFolder(user, user.privateRootId!, unique("sub_"));
    await uploadText(user, user.privateRootId!, "top.txt", "t".repeat(100));
    await uploadText(user, sub.id, "deep.txt", "d".repeat(50));
    await uploadText(user, sub.id, "deep.txt", "d".repeat(70));
    // A company folder the user fills is not their private space.
    const company = await createFolder(admin, 0, unique("company_"));
    await uploadText(admin, company.id, "shared.txt", "s".repeat(1000));
    const body = await statsOk(admin.token, STATS_MASK.private);
    expect(one(body.storage!.private!.users, (u) => u.id === String(user.id)).size).toBe(100 + 50 + 70);
    expect(body.storage!.private!.total).toBe(body.storage!.private!.users.reduce((s, u) => s + u.size, 0));
  });

  it("mask 16: versions other than the current one, counted and weighed", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    await uploadText(user, user.privateRootId!, "v.txt", "1".repeat(10));
    await uploadText(user, user.privateRootId!, "v.txt", "2".repeat(20));
    await uploadText(user, user.privateRootId!, "v.txt", "3".repeat(30));
    await inSnapshot(async (tx) => {
      const [count, size] = await Promise.all([
        sumOf(tx, sql`SELECT count(*) AS n FROM file_versions v WHERE v.deleted_at IS NULL AND v.number < (SELECT max(w.number) FROM file_versions w WHERE w.file_id = v.file_id AND w.deleted_at IS NULL)`),
        sumOf(tx, sql`SELECT coalesce(sum(size), 0) AS n FROM file_versions v WHERE v.deleted_at IS NULL AND v.number < (SELECT max(w.number) FROM file_versions w WHERE w.file_id = v.file_id AND w.deleted_at IS NULL)`),
      ]);
      expect(count).toBeGreaterThanOrEqual(2);
      expect(size).toBeGreaterThanOrEqual(30);
      expect((await getStats(ctxIn(tx, admin), { mask: STATS_MASK.versions })).storage!.versions).toEqual({ count, size });
    });
  });

  it("mask 8: accounts seen lately, with their actions of the period, externals marked", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    const external = await createTestUser({ role: 1 });
    const db = await getDb();
    // Seen in the future: at the top of the list whatever the parallel tests sign in meanwhile.
    const soon = new Date(Date.now() + 3_600_000);
    for (const who of [user, external]) await db.insert(sessions).values({ tokenHash: hashToken(newToken()), userId: who.id, lastUsedAt: soon });
    await db.insert(logs).values([
      { userId: user.id, userName: user.login, message: "one", type: "ADMLLOG_UPDATE" },
      { userId: user.id, userName: user.login, message: "two", type: "ADMLLOG_INSERT" },
      { userId: user.id, userName: user.login, message: "old", type: "ADMLLOG_INSERT", date: new Date(Date.now() - 40 * 86_400_000) },
    ]);
    const visits = (await statsOk(admin.token, STATS_MASK.visits)).visits!;
    expect(one(visits, (v) => v.id === String(user.id))).toEqual({ id: String(user.id), user: `Test ${user.login}`, login: user.login, last_seen: soon.toISOString(), actions: 2, external: false });
    expect(one(visits, (v) => v.id === String(external.id))).toMatchObject({ actions: 0, external: true });
    expect(visits.length).toBeLessThanOrEqual(100);
  });

  it("mask 4: seats are the active internal accounts; new ones are listed", async () => {
    const admin = await createAdmin();
    await inSnapshot(async (tx) => {
      const ctx = ctxIn(tx, admin);
      const before = (await getStats(ctx, { mask: STATS_MASK.slots })).slots!;
      const soon = new Date(Date.now() + 3_600_000);
      const [fresh] = await tx.insert(users).values({ login: unique("seat_"), role: 2, createdAt: soon }).returning();
      await tx.insert(users).values([
        { login: unique("ext_"), role: 1 },
        { login: unique("off_"), role: 2, active: false },
      ]);
      const after = (await getStats(ctx, { mask: STATS_MASK.slots })).slots!;
      expect(after.used).toBe(before.used + 1);
      expect(after).toMatchObject({ allowed: null, billable: after.used });
      expect(after.recents[0]).toEqual({ id: String(fresh.id), user: fresh.login, login: fresh.login, creation: soon.toISOString() });
      expect(after.used).toBe(await sumOf(tx, sql`SELECT count(*) AS n FROM users WHERE deleted_at IS NULL AND active AND role IN (2, 3, 4)`));
    });
  });

  it("mask 32: the daily samples of the last 30 days, the largest users and the signing counters", async () => {
    const admin = await createAdmin();
    await inSnapshot(async (tx) => {
      const today = utcDay(new Date());
      const daysAgo = (n: number) => utcDay(new Date(Date.now() - n * 86_400_000));
      await tx.delete(statsSamples);
      await tx.insert(statsSamples).values([
        { day: daysAgo(45), storageUsed: 1, activeUsers: 1, uploads: 1, downloads: 1 },
        { day: daysAgo(3), storageUsed: 500, activeUsers: 4, uploads: 7, downloads: 2 },
      ]);
      // The biggest uploader of the platform, by far.
      const [heavy] = await tx.insert(users).values({ login: unique("heavy_"), role: 2 }).returning();
      const [file] = await tx.insert(files).values({ folderId: admin.privateRootId!, name: unique("huge_"), ownerId: heavy.id }).returning();
      await tx.insert(fileVersions).values({ fileId: file.id, number: 1, size: 1e15, md5: "0", creatorId: heavy.id });

      await sampleStatsJob(tx);
      const body = await getStats(ctxIn(tx, admin), { mask: STATS_MASK.stats });
      const used = await sumOf(tx, sql`SELECT coalesce(sum(size), 0) AS n FROM file_versions`);
      const uploadsToday = await sumOf(tx, sql`SELECT count(*) AS n FROM file_versions WHERE created_at >= current_date`);
      expect(body.stats!.days.map((d) => d.date)).toEqual([daysAgo(3), today]);
      expect(body.stats!.days[0]).toEqual({ date: daysAgo(3), storage_used: 500, active_users: 4, uploads: 7, downloads: 2, signatures: 0, validations: 0 });
      expect(body.stats!.days[1]).toMatchObject({ date: today, storage_used: used, uploads: uploadsToday });
      expect(body.stats!.days[1].active_users).toBeGreaterThanOrEqual(1);
      expect(body.stats!.largest_users[0]).toEqual({ id: String(heavy.id), user: heavy.login, login: heavy.login, size: 1e15 });
      expect(body.stats!.largest_users.length).toBeLessThanOrEqual(10);
      expect(body.docsigning).toEqual({ sign: body.stats!.days.reduce((n, d) => n + d.signatures, 0), sign_personal: 0, timestamp: 0 });
    });
  });

  it("keeps slow parts for a while and says until when in `expire`", async () => {
    const admin = await createAdmin();
    process.env.STATS_CACHE_THRESHOLD_MS = "-1";
    process.env.STATS_CACHE_FRESHEN_SECONDS = "1000";
    const first = await statsOk(admin.token, STATS_MASK.versions);
    expect(first.expire - Date.now() / 1000).toBeGreaterThan(250);
    const user = await createTestUser();
    await uploadText(user, user.privateRootId!, "later.txt", "z".repeat(5000));
    await uploadText(user, user.privateRootId!, "later.txt", "y".repeat(5000));
    const second = await statsOk(admin.token, STATS_MASK.versions);
    expect(second).toEqual(first);
    forgetCachedStats();
    process.env.STATS_CACHE_THRESHOLD_MS = "1000000";
    expect((await statsOk(admin.token, STATS_MASK.versions)).storage!.versions!.size).toBeGreaterThanOrEqual(first.storage!.versions!.size + 5000);
  });

  it("never caches the storage used nor today, however slow: the card and today's point move at once and agree", async () => {
    const admin = await createAdmin();
    process.env.STATS_CACHE_THRESHOLD_MS = "-1";
    process.env.STATS_CACHE_FRESHEN_SECONDS = "1000";
    const first = await statsOk(admin.token, STATS_MASK.storage | STATS_MASK.stats);
    // The costly parts of `stats` (samples, storage by type, 30 days) are cached: `expire` says so.
    expect(first.expire - Date.now() / 1000).toBeGreaterThan(250);
    const user = await createTestUser();
    for (const name of ["a.txt", "b.txt", "c.txt"]) await uploadText(user, user.privateRootId!, name, "q".repeat(3000));
    const second = await statsOk(admin.token, STATS_MASK.storage | STATS_MASK.stats);
    expect(second.storage!.main!.used).toBeGreaterThanOrEqual(first.storage!.main!.used + 9000);
    expect(second.stats!.days.at(-1)!.uploads).toBeGreaterThanOrEqual(first.stats!.days.at(-1)!.uploads + 3);
    expect(second.stats!.days.at(-1)!.storage_used).toBeGreaterThanOrEqual(first.stats!.days.at(-1)!.storage_used + 9000);
    // Storage by type is a costly part: served from the cache, unchanged.
    expect(second.stats!.storage_by_type).toEqual(first.stats!.storage_by_type);
    expect(second.stats!.active_users_30d).toBeGreaterThanOrEqual(second.stats!.days.at(-1)!.active_users);
  });

  it("recomputes a cached sum of versions once the platform's bytes have moved and it is older than STATS_CACHE_FRESHEN_SECONDS", async () => {
    const admin = await createAdmin();
    process.env.STATS_CACHE_THRESHOLD_MS = "-1";
    process.env.STATS_CACHE_FRESHEN_SECONDS = "0";
    const first = await statsOk(admin.token, STATS_MASK.stats | STATS_MASK.versions);
    const user = await createTestUser();
    await uploadText(user, user.privateRootId!, "w.txt", "w".repeat(4000));
    await uploadText(user, user.privateRootId!, "w.txt", "v".repeat(4000));
    const second = await statsOk(admin.token, STATS_MASK.stats | STATS_MASK.versions);
    const sizeOf = (body: typeof first) => body.stats!.storage_by_type.reduce((n, t) => n + t.size, 0);
    expect(sizeOf(second)).toBeGreaterThanOrEqual(sizeOf(first) + 8000);
    expect(second.storage!.versions!.size).toBeGreaterThanOrEqual(first.storage!.versions!.size + 4000);
    // Recomputed, so cached again from now.
    expect(second.expire - Date.now() / 1000).toBeGreaterThan(250);
  });

  it("past `expire`, serves the old figures at once and recomputes them in the background", async () => {
    const admin = await createAdmin();
    process.env.STATS_CACHE_THRESHOLD_MS = "-1";
    process.env.STATS_CACHE_SECONDS = "0.2";
    process.env.STATS_CACHE_FRESHEN_SECONDS = "1000";
    try {
      const first = await statsOk(admin.token, STATS_MASK.versions);
      const user = await createTestUser();
      await uploadText(user, user.privateRootId!, "more.txt", "m".repeat(7000));
      await uploadText(user, user.privateRootId!, "more.txt", "n".repeat(7000));
      await new Promise((r) => setTimeout(r, 300));
      const stale = await statsOk(admin.token, STATS_MASK.versions);
      expect(stale.storage).toEqual(first.storage);
      expect(Math.abs(stale.expire - Date.now() / 1000)).toBeLessThan(2);
      await expect.poll(async () => (await statsOk(admin.token, STATS_MASK.versions)).storage!.versions!.size).toBeGreaterThanOrEqual(first.storage!.versions!.size + 7000);
    } finally {
      delete process.env.STATS_CACHE_SECONDS;
    }
  });
});

describe("GET /api/stats: today is live (issue 32)", () => {
  const todayOf = (days: StatsDay[]) => {
    const last = days.at(-1)!;
    expect(last.date).toBe(utcDay(new Date()));
    return last;
  };

  it("after a user uploads three files and signs in, today shows them at once, though today's sample was taken before", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    const db = await getDb();
    // Not active yet: no session used today, never signed in.
    await db.delete(sessions).where(sql`${sessions.userId} = ${user.id}`);
    await sampleStats(db, new Date());
    const [sampled] = await db.select().from(statsSamples).where(sql`${statsSamples.day} = ${utcDay(new Date())}`);
    for (const name of ["one.txt", "two.txt", "three.txt"]) await uploadText(user, user.privateRootId!, name, "u".repeat(100));
    const signIn = await call(authRoute.POST, { method: "POST", body: { user: user.login, password: user.password }, headers: { "x-forwarded-for": "10.32.0.1" } });
    expect(signIn.status, signIn.text).toBe(200);

    const today = todayOf((await statsOk(admin.token, STATS_MASK.stats)).stats!.days);
    expect(today.uploads).toBeGreaterThanOrEqual(3);
    expect(today.uploads).toBeGreaterThanOrEqual(sampled.uploads + 3);
    expect(today.active_users).toBeGreaterThanOrEqual(1);
    const all = await statsOk(admin.token, ALL_STATS);
    expect(all.stats!.active_users_30d).toBeGreaterThanOrEqual(todayOf(all.stats!.days).active_users);
  });

  it("counts today's uploads, active users, signatures and validations exactly, and past days' completions", async () => {
    const admin = await createAdmin();
    await inSnapshot(async (tx) => {
      const ctx = ctxIn(tx, admin);
      const read = async () => (await getStats(ctx, { mask: STATS_MASK.stats })).stats!;
      // A sample taken now must not stand for today afterwards.
      await sampleStats(tx, new Date());
      const before = await read();
      const t0 = before.days.at(-1)!;

      const [fresh] = await tx.insert(users).values([{ login: unique("act_"), role: 2 }, { login: unique("act_"), role: 2, lastLogin: new Date() }]).returning();
      await tx.insert(sessions).values({ tokenHash: hashToken(newToken()), userId: fresh.id, lastUsedAt: new Date() });
      // Seen 10 days ago: active over 30 days, not today.
      await tx.insert(users).values({ login: unique("old_"), role: 2, lastLogin: new Date(Date.now() - 10 * 86_400_000) });
      const [file] = await tx.insert(files).values({ folderId: admin.privateRootId!, name: unique("up_"), ownerId: fresh.id }).returning();
      await tx.insert(fileVersions).values([1, 2, 3].map((number) => ({ fileId: file.id, number, size: 10, md5: "0", creatorId: fresh.id })));

      const now = new Date();
      const yesterday = new Date(Date.now() - 86_400_000);
      await tx.insert(signatureRequests).values([
        { userId: fresh.id, name: "plain", status: "done", completedAt: now },
        { userId: fresh.id, name: "refused", status: "refused", completedAt: now },
        { userId: fresh.id, name: "ongoing", status: "ongoing" },
        { userId: fresh.id, name: "yesterday", status: "done", completedAt: yesterday },
      ]);
      // A mass request: its two signers' requests count, the parent that settles them does not.
      const [parent] = await tx.insert(signatureRequests).values({ userId: fresh.id, name: "mass", status: "done", isMasses: true, completedAt: now }).returning();
      await tx.insert(signatureRequests).values([1, 2].map((n) => ({ userId: fresh.id, parentId: parent.id, name: `mass ${n}`, status: "done", isMasses: true, completedAt: now })));
      const instance = (state: string, closedAt: Date | null) => ({ flux: 1, ownerId: fresh.id, state, properties: {}, closedAt });
      await tx.insert(workflowInstances).values([
        instance("validated", now),
        instance("validated", now),
        instance("refused", now),
        instance("cancelled", now),
        instance("waiting_validation", null),
        instance("validated", yesterday),
      ]);
      // Yesterday was sampled (its storage and activity), so it is a day of the series.
      await tx.insert(statsSamples).values({ day: utcDay(yesterday), storageUsed: 1, activeUsers: 1, uploads: 1, downloads: 1 }).onConflictDoNothing();

      const after = await read();
      const t1 = after.days.at(-1)!;
      expect(t1.date).toBe(utcDay(now));
      expect(t1.uploads - t0.uploads).toBe(3);
      expect(t1.storage_used - t0.storage_used).toBe(30);
      expect(t1.active_users - t0.active_users).toBe(2);
      expect(t1.signatures - t0.signatures).toBe(3);
      expect(t1.validations - t0.validations).toBe(2);
      expect(after.active_users_30d - before.active_users_30d).toBe(3);
      const past = (days: StatsDay[]) => days.find((d) => d.date === utcDay(yesterday));
      expect(past(after.days)!.signatures - (past(before.days)?.signatures ?? 0)).toBe(1);
      expect(past(after.days)!.validations - (past(before.days)?.validations ?? 0)).toBe(1);
      // Independently: today's uploads are the versions created since midnight UTC.
      expect(t1.uploads).toBe(await sumOf(tx, sql`SELECT count(*) AS n FROM file_versions WHERE created_at >= ${`${utcDay(now)}T00:00:00Z`}::timestamptz`));
    });
  });

  it("storage by type: every family listed, sizes adding up to the storage used, office files sniffed as zip counted as documents", async () => {
    const admin = await createAdmin();
    await inSnapshot(async (tx) => {
      const ctx = ctxIn(tx, admin);
      const read = async () => {
        const body = await getStats(ctx, { mask: STATS_MASK.stats | STATS_MASK.storage });
        return { types: body.stats!.storage_by_type, used: body.storage!.main!.used };
      };
      const before = await read();
      expect(before.types.map((t) => t.type)).toEqual([...STORAGE_TYPES]);
      expect(before.types.reduce((n, t) => n + t.size, 0)).toBe(before.used);
      expect(before.types.reduce((n, t) => n + t.count, 0)).toBe(await sumOf(tx, sql`SELECT count(*) AS n FROM file_versions`));

      const add = async (name: string, mime: string, size: number) => {
        const [file] = await tx.insert(files).values({ folderId: admin.privateRootId!, name: `${unique("t_")}${name}`, ownerId: admin.id }).returning();
        await tx.insert(fileVersions).values({ fileId: file.id, number: 1, size, md5: "0", mime, creatorId: admin.id });
      };
      await add("report.docx", "application/zip", 1);
      await add("scan.pdf", "application/pdf", 2);
      await add("table.csv", "text/csv", 4);
      await add("photo.jpg", "image/jpeg", 8);
      await add("clip.mp4", "video/mp4", 16);
      await add("song.mp3", "audio/mpeg", 32);
      await add("backup.zip", "application/zip", 64);
      await add("data.bin", "application/octet-stream", 128);
      const after = await read();
      const delta = Object.fromEntries(after.types.map((t, i) => [t.type, [t.size - before.types[i].size, t.count - before.types[i].count]]));
      expect(delta).toEqual({ documents: [7, 3], images: [8, 1], video: [16, 1], audio: [32, 1], archives: [64, 1], other: [128, 1] });
      expect(after.types.reduce((n, t) => n + t.size, 0)).toBe(after.used);
    });
  });
});
