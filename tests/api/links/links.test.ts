import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as smsRoute from "@/app/api/admin/sms/route";
import { getDb } from "@/db";
import { linkAccessTokens, linkCodes, smsMessages } from "@/db/schema";
import { hashToken } from "@/lib/server/auth/tokens";
import { hasLinkAccess } from "@/lib/server/links/link-access";
import { newLinkKey } from "@/lib/server/links/link-key";
import { hashLinkPassword } from "@/lib/server/links/link-password";
import type { ProtectedLink } from "@/lib/server/links/link-types";
import { checkLinkSecret } from "@/lib/server/links/passcheck";
import { sendLinkCode } from "@/lib/server/links/sms";
import { getSmsProvider } from "@/lib/server/sms/provider";
import { sendSms } from "@/lib/server/sms/send-sms";
import { createAdmin, createTestUser } from "../../helpers/factories";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";

beforeAll(openDatabase, OPEN_TIMEOUT);

// Link ids no real link has, so the throttle and token rows of these tests are their own.
let nextId = 1_500_000_000 + Math.floor(Math.random() * 100_000_000);
const linkId = () => nextId++;
const phone = () => `+3370${String(nextId++).slice(-7)}`;
const codeSentTo = async (to: string) => /(\d{6})/.exec((await (await getDb()).select().from(smsMessages).where(eq(smsMessages.to, to)))[0].body)![1];

describe("newLinkKey", () => {
  it("is URL safe, at least 128 bits, and never repeats", () => {
    const keys = new Set(Array.from({ length: 1000 }, newLinkKey));
    expect(keys.size).toBe(1000);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9_-]{22,}$/);
  });
});

describe("checkLinkSecret and access tokens", () => {
  it("gives a drop link a 4-hour token for its password, valid for that link only", async () => {
    const db = await getDb();
    const link: ProtectedLink = { linkType: "ulink", linkId: linkId(), passwordHash: await hashLinkPassword("drop-pass"), needsPassword: true, needsCode: false };
    const { access_token } = await checkLinkSecret(db, link, { password: "drop-pass" }, "10.3.0.1");
    const [row] = await db.select().from(linkAccessTokens).where(eq(linkAccessTokens.tokenHash, hashToken(access_token)));
    expect(Math.abs(row.expiresAt.getTime() - Date.now() - 4 * 3600_000)).toBeLessThan(60_000);
    expect(await hasLinkAccess(db, "ulink", link.linkId, access_token)).toBe(true);
    expect(await hasLinkAccess(db, "share", link.linkId, access_token)).toBe(false);
    expect(await hasLinkAccess(db, "ulink", link.linkId + 1, access_token)).toBe(false);
    expect(await hasLinkAccess(db, "ulink", link.linkId, null)).toBe(false);
    await db.update(linkAccessTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(linkAccessTokens.tokenHash, row.tokenHash));
    expect(await hasLinkAccess(db, "ulink", link.linkId, access_token)).toBe(false);
  });

  it("refuses wrong passwords (403) and blocks brute force per link and address (429 with Retry-After)", async () => {
    const db = await getDb();
    const link: ProtectedLink = { linkType: "ulink", linkId: linkId(), passwordHash: await hashLinkPassword("drop-pass"), needsPassword: true, needsCode: false };
    for (let i = 0; i < 5; i++) await expect(checkLinkSecret(db, link, { password: `nope-${i}` }, "10.3.1.1")).rejects.toMatchObject({ status: 403 });
    const blocked = checkLinkSecret(db, link, { password: "drop-pass" }, "10.3.1.1");
    await expect(blocked).rejects.toMatchObject({ status: 429 });
    await expect(blocked).rejects.toHaveProperty(["headers", "Retry-After"]);
    await expect(checkLinkSecret(db, link, { password: "drop-pass" }, "10.3.1.2")).resolves.toHaveProperty("access_token");
    await expect(checkLinkSecret(db, { ...link, linkId: linkId() }, { password: "drop-pass" }, "10.3.1.1")).resolves.toHaveProperty("access_token");
  });

  it("asks for both secrets when a link has both (400 for a missing one)", async () => {
    const db = await getDb();
    const to = phone();
    const link: ProtectedLink = { linkType: "share", linkId: linkId(), passwordHash: await hashLinkPassword("both-pass"), needsPassword: true, needsCode: true };
    await sendLinkCode(db, { linkType: "share", linkId: link.linkId, phone: to }, (code) => `code ${code}`);
    const code = await codeSentTo(to);
    await expect(checkLinkSecret(db, link, { password: "both-pass" }, "10.3.2.1")).rejects.toMatchObject({ status: 400 });
    await expect(checkLinkSecret(db, link, { code }, "10.3.2.1")).rejects.toMatchObject({ status: 400 });
    await expect(checkLinkSecret(db, link, { password: "wrong-pass", code }, "10.3.2.1")).rejects.toMatchObject({ status: 403 });
    await expect(checkLinkSecret(db, link, { password: "both-pass", code }, "10.3.2.1")).resolves.toHaveProperty("access_token");
  });
});

describe("sendLinkCode", () => {
  it("sends a 6-digit code valid 10 minutes, stored hashed, at most once a minute; an expired code fails", async () => {
    const db = await getDb();
    const to = phone();
    const link: ProtectedLink = { linkType: "ulink", linkId: linkId(), passwordHash: null, needsPassword: false, needsCode: true };
    await sendLinkCode(db, { linkType: "ulink", linkId: link.linkId, phone: to }, (code) => `Your code: ${code}`);
    const code = await codeSentTo(to);
    const [stored] = await db.select().from(linkCodes).where(and(eq(linkCodes.linkType, "ulink"), eq(linkCodes.linkId, link.linkId)));
    expect(stored.codeHash).not.toContain(code);
    expect(Math.abs(stored.expiresAt.getTime() - Date.now() - 10 * 60_000)).toBeLessThan(60_000);
    await expect(sendLinkCode(db, { linkType: "ulink", linkId: link.linkId, phone: to }, (c) => c)).rejects.toMatchObject({ status: 429 });
    await db.update(linkCodes).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(linkCodes.id, stored.id));
    await expect(checkLinkSecret(db, link, { code }, "10.3.3.1")).rejects.toMatchObject({ status: 403 });
  });
});

describe("SMS providers", () => {
  let gateway: http.Server;
  let url = "";
  const received: { to: string; body: string; auth?: string }[] = [];
  beforeAll(async () => {
    gateway = http.createServer((req, res) => {
      let text = "";
      req.on("data", (c) => (text += c));
      req.on("end", () => {
        const body = JSON.parse(text);
        received.push({ ...body, auth: req.headers.authorization });
        res.statusCode = body.to === "+000" ? 500 : 202;
        res.end();
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/sms`;
  });
  afterAll(() => new Promise((resolve) => gateway.close(resolve)));

  it("chooses the outbox by default and the http gateway by configuration", () => {
    expect(getSmsProvider({}).name).toBe("outbox");
    expect(getSmsProvider({ SMS_PROVIDER: "http" }).name).toBe("outbox");
    expect(getSmsProvider({ SMS_PROVIDER: "http", SMS_HTTP_URL: url }).name).toBe("http");
  });

  it("posts JSON to the gateway and records the message; a refusal is recorded and answered 503", async () => {
    const db = await getDb();
    const provider = getSmsProvider({ SMS_PROVIDER: "http", SMS_HTTP_URL: url, SMS_HTTP_TOKEN: "gw-secret" });
    const to = phone();
    await sendSms(db, to, "hello", provider);
    expect(received.at(-1)).toEqual({ to, body: "hello", auth: "Bearer gw-secret" });
    expect((await db.select().from(smsMessages).where(eq(smsMessages.to, to)))[0]).toMatchObject({ provider: "http", error: null });
    await expect(sendSms(db, "+000", "lost", provider)).rejects.toMatchObject({ status: 503 });
    const [failed] = await db.select().from(smsMessages).where(eq(smsMessages.to, "+000"));
    expect(failed.sentAt).toBeNull();
    expect(failed.error).toMatch(/500/);
  });
});

describe("GET /admin/sms", () => {
  it("lists the messages sent, newest first, to administrators only", async () => {
    const to = phone();
    await sendSms(await getDb(), to, "admin can read this");
    const res = await call(smsRoute.GET, { method: "GET", token: (await createAdmin()).token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.objects[0]).toMatchObject({ to, body: "admin can read this", provider: "outbox", error: null });
    expect(res.body.nb_total_objects).toBeGreaterThan(0);
    expectError(await call(smsRoute.GET, { method: "GET", token: (await createTestUser()).token }), 403, "forbidden");
    await expectAuthRequired(smsRoute.GET, { method: "GET" });
  });
});
