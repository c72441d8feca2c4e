import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as activityRoute from "@/app/api/share/[shareId]/activity/route";
import * as sharePasscheckRoute from "@/app/api/share/key/[key]/passcheck/route";
import * as shareSmsRoute from "@/app/api/share/key/[key]/sms/route";
import * as createShareRoute from "@/app/api/share/route";
import * as oneShareRoute from "@/app/api/share/[shareId]/route";
import * as passcheckRoute from "@/app/api/sharelink/key/[key]/passcheck/route";
import * as createRoute from "@/app/api/sharelink/route";
import * as ulinkPasscheckRoute from "@/app/api/ulink/key/[key]/passcheck/route";
import * as createUlinkRoute from "@/app/api/ulink/route";
import * as oneUlinkRoute from "@/app/api/ulink/[ulinkId]/route";
import * as timelineRoute from "@/app/api/folder/[folderId]/timeline/route";
import { getDb } from "@/db";
import { events, smsMessages } from "@/db/schema";
import { createFileScene, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { call, expectError } from "../../helpers/http";

// Issue 25, finding 6: link passwords were counted per (link, address) and per address only, so
// 150 guesses from 150 addresses never met a 429. They count per link too now, the owner sees the
// refused attempts in the link's activity, and new link passwords have 8 characters at least.
// Addresses are spoofed as in the other tests (route calls read X-Forwarded-For).
beforeAll(openDatabase, OPEN_TIMEOUT);

const net = () => Math.floor(Math.random() * 250);
const from = (address: string) => ({ "x-forwarded-for": address });

/** Guesses from a new address each, until a 429 or `max`; the statuses in order. */
async function guessFromMany(max: number, guess: (headers: Record<string, string>, i: number) => Promise<{ status: number }>) {
  const a = net();
  const statuses: number[] = [];
  for (let i = 0; i < max; i++) {
    const status = (await guess(from(`10.${a}.${Math.floor(i / 250)}.${i % 250}`), i)).status;
    statuses.push(status);
    if (status === 429) break;
  }
  return statuses;
}

describe("guessing a link's password from many addresses", () => {
  it("a legacy share link: 429 long before 150 guesses from 150 addresses, the right password included, and the owner sees the refusals", async () => {
    const { owner, version } = await createFileScene({ name: "guarded.txt" });
    const created = await call(createRoute.POST, { method: "POST", token: owner.token, body: { files: [version.id], password: "right-password" } });
    expect(created.status, created.text).toBe(201);
    const key = created.body.key as string;
    const statuses = await guessFromMany(150, (headers, i) => call(passcheckRoute.POST, { method: "POST", params: { key }, body: { password: `guess-${i}` }, headers }));
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.length).toBeLessThanOrEqual(21);
    const blocked = await call(passcheckRoute.POST, { method: "POST", params: { key }, body: { password: "right-password" }, headers: from(`172.16.${net()}.${net()}`) });
    expectError(blocked, 429, "too_many_requests");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThanOrEqual(30);

    const activity = await call(activityRoute.GET, { token: owner.token, params: { shareId: String(created.body.id) } });
    expect(activity.status, activity.text).toBe(200);
    expect(activity.body).toMatchObject({ refused: statuses.length - 1, users: 0, visits: 0, last_access: null });
    expect(activity.body.objects[0]).toMatchObject({ kind: "refused", date: expect.any(String) });
  });

  it("guesses sent all at once: 20 are tried, the rest answered 429", async () => {
    const { owner, version } = await createFileScene({ name: "rushed.txt" });
    const created = await call(createRoute.POST, { method: "POST", token: owner.token, body: { files: [version.id], password: "right-password" } });
    const key = created.body.key as string;
    const a = net();
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => call(passcheckRoute.POST, { method: "POST", params: { key }, body: { password: `rush-${i}` }, headers: from(`10.${a}.200.${i}`) }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 403)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
  });

  it("a current share's SMS code takes the same path: counted per link from every address", async () => {
    const { owner, folder } = await createFileScene({ name: "coded.txt" });
    const phone = `+3362${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
    const share = await call(createShareRoute.POST, { method: "POST", token: owner.token, body: { roots: [{ id: folder.id, entity_type: 0 }], flags: 4, phone } });
    expect(share.status, share.text).toBe(201);
    const key = share.body.key as string;
    expect((await call(shareSmsRoute.POST, { method: "POST", params: { key } })).status).toBe(204);
    const db = await getDb();
    const [sms] = await db.select().from(smsMessages).where(eq(smsMessages.to, phone));
    const code = sms.body.match(/\b(\d{6})\b/)![1];
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0");
    const statuses = await guessFromMany(150, (headers, i) => call(sharePasscheckRoute.POST, { method: "POST", params: { key }, body: { code: wrong(i) }, headers }));
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.length).toBeLessThanOrEqual(21);
    expectError(await call(sharePasscheckRoute.POST, { method: "POST", params: { key }, body: { code }, headers: from(`172.17.${net()}.${net()}`) }), 429);
    const activity = await call(activityRoute.GET, { token: owner.token, params: { shareId: String(share.body.id) } });
    expect(activity.body.refused).toBe(statuses.length - 1);
  });

  it("a drop link: the same per-link count, and each refusal is an event of its folder's timeline", async () => {
    const { owner, folder } = await createFileScene({ name: "inbox.txt" });
    const created = await call(createUlinkRoute.POST, { method: "POST", token: owner.token, body: { folder_id: folder.id, password: "drop-password" } });
    expect(created.status, created.text).toBe(201);
    const key = created.body.key as string;
    const statuses = await guessFromMany(150, (headers, i) => call(ulinkPasscheckRoute.POST, { method: "POST", params: { key }, body: { password: `guess-${i}` }, headers }));
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.length).toBeLessThanOrEqual(21);

    const db = await getDb();
    const refusals = await db.select().from(events).where(and(eq(events.targetType, "folder"), eq(events.targetId, folder.id), eq(events.type, 6)));
    expect(refusals).toHaveLength(statuses.length - 1);
    expect(refusals[0].data).toEqual({ ulink_id: created.body.id });
    const timeline = await call(timelineRoute.GET, { token: owner.token, params: { folderId: String(folder.id) } });
    expect(timeline.status, timeline.text).toBe(200);
    expect(timeline.body.events.filter((e: { type: number }) => e.type === 6)).toHaveLength(statuses.length - 1);
  });
});

describe("new link passwords", () => {
  it("need 8 characters at least (400 naming the field); 8 are enough", async () => {
    const { owner, version, folder } = await createFileScene({ name: "short.txt" });
    const legacy = await call(createRoute.POST, { method: "POST", token: owner.token, body: { files: [version.id], password: "7-chars" } });
    expectError(legacy, 400, "invalid_request");
    expect(legacy.body.details).toEqual([{ path: "password", message: expect.stringMatching(/at least 8 characters/) }]);
    const share = await call(createShareRoute.POST, { method: "POST", token: owner.token, body: { roots: [{ id: folder.id, entity_type: 0 }], flags: 20, password: "short" } });
    expectError(share, 400, "invalid_request");
    const drop = await call(createUlinkRoute.POST, { method: "POST", token: owner.token, body: { folder_id: folder.id, password: "1234567" } });
    expectError(drop, 400, "invalid_request");

    const ok = await call(createShareRoute.POST, { method: "POST", token: owner.token, body: { roots: [{ id: folder.id, entity_type: 0 }], flags: 20, password: "8-chars!" } });
    expect(ok.status, ok.text).toBe(201);
    expectError(await call(oneShareRoute.PUT, { method: "PUT", token: owner.token, params: { shareId: String(ok.body.id) }, body: { password: "tiny" } }), 400, "invalid_request");
    const dropOk = await call(createUlinkRoute.POST, { method: "POST", token: owner.token, body: { folder_id: folder.id } });
    expectError(await call(oneUlinkRoute.PUT, { method: "PUT", token: owner.token, params: { ulinkId: String(dropOk.body.id) }, body: { password: "tiny" } }), 400, "invalid_request");
  });
});
