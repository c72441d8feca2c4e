import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as oneRoute from "@/app/api/share/[shareId]/route";
import { getDb } from "@/db";
import { linkCodes, linkVisitors, users } from "@/db/schema";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { call, expectError } from "../../helpers/http";
import { VISITOR_MAILS_PER_HOUR, VISITORS_PER_HOUR } from "@/lib/server/engagement/gate/visitor-limits";
import { address, content, gatedShare, mailedCode, mailsTo, visit } from "./gate-helpers";

beforeAll(openDatabase, OPEN_TIMEOUT);

describe("verify_email", () => {
  it("mails a 6-digit code (202), refuses a wrong one (403) and lets the right one in, once, as verified", async () => {
    const { share } = await gatedShare({ verify_email: 1 });
    const email = address();
    const sent = await visit(share.key, { email });
    expect(sent.status, sent.text).toBe(202);
    expect(sent.body).toEqual({ code_sent: true });
    const code = await mailedCode(email);
    const db = await getDb();
    const [stored] = await db.select().from(linkCodes).where(eq(linkCodes.email, email));
    expect(stored.codeHash).not.toContain(code);
    expect(Math.abs(stored.expiresAt.getTime() - Date.now() - 15 * 60_000)).toBeLessThan(60_000);

    const wrong = code === "000000" ? "111111" : "000000";
    expectError(await visit(share.key, { email, code: wrong }, { ip: "10.31.0.1" }), 403, "forbidden");
    // A code is bound to its address: another visitor cannot use it.
    expectError(await visit(share.key, { email: address(), code }, { ip: "10.31.0.1" }), 403, "forbidden");
    const ok = await visit(share.key, { email, code }, { ip: "10.31.0.1" });
    expect(ok.status, ok.text).toBe(200);
    expect((await content(share.key, ok.body.access_token)).status).toBe(200);
    const [visitor] = await db.select().from(linkVisitors).where(eq(linkVisitors.shareId, share.id));
    expect(visitor.email).toBe(email);
    expect(visitor.verifiedAt).not.toBeNull();
    expectError(await visit(share.key, { email, code }, { ip: "10.31.0.1" }), 403, "forbidden");
  });

  it("replaces an unused code with a new one", async () => {
    const { share } = await gatedShare({ verify_email: 1 });
    const email = address();
    expect((await visit(share.key, { email })).status).toBe(202);
    const first = await mailedCode(email);
    expect((await visit(share.key, { email })).status).toBe(202);
    const second = await mailedCode(email);
    if (first !== second) expectError(await visit(share.key, { email, code: first }, { ip: "10.31.1.1" }), 403, "forbidden");
    expect((await visit(share.key, { email, code: second }, { ip: "10.31.1.1" })).status).toBe(200);
  });

  it("mails at most 5 codes per link and address in an hour (429 with Retry-After)", async () => {
    const { share } = await gatedShare({ verify_email: 1 });
    const email = address();
    for (let i = 0; i < 5; i++) expect((await visit(share.key, { email })).status).toBe(202);
    const blocked = await visit(share.key, { email });
    expectError(blocked, 429, "too_many_requests");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(3000);
    expect((await mailsTo(email, "code")).length).toBe(5);
    expect((await visit(share.key, { email: address() })).status).toBe(202);
  });

  it("throttles code guesses under the link's throttle: 429 past a few wrong codes, even for the right one", async () => {
    const { share } = await gatedShare({ verify_email: 1 });
    const email = address();
    await visit(share.key, { email });
    const code = await mailedCode(email);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await visit(share.key, { email, code: String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0") }, { ip: "10.31.2.2" })).status);
    expect(statuses.slice(0, 4)).toEqual([403, 403, 403, 403]);
    expect(statuses.at(-1)).toBe(429);
    expectError(await visit(share.key, { email, code }, { ip: "10.31.2.2" }), 429, "too_many_requests");
    expect((await visit(share.key, { email, code }, { ip: "10.31.2.3" })).status).toBe(200);
  });
});

describe("notify_view", () => {
  it("queues one mail to the owner, in their language, per new visitor, not for a returning one", async () => {
    const { owner, share } = await gatedShare({ ask_email: 1, notify_view: 1 });
    await (await getDb()).update(users).set({ language: "fr" }).where(eq(users.id, owner.id));
    const email = address();
    expect((await visit(share.key, { email })).status).toBe(200);
    expect((await visit(share.key, { email })).status).toBe(200);
    const mails = await mailsTo(owner.email, "Proposal");
    expect(mails).toHaveLength(1);
    expect(mails[0].object).toBe("Nouveau visiteur sur votre lien Proposal");
    expect(mails[0].content).toContain(`Visiteur : ${email}`);
    expect(mails[0].content).toContain(`/links/${share.id}/analytics`);
    expect((await visit(share.key, { email: address() })).status).toBe(200);
    expect(await mailsTo(owner.email, "Proposal")).toHaveLength(2);
  });

  it("names an anonymous visitor by their address, and mails nothing without the option", async () => {
    const { owner, share } = await gatedShare({ notify_view: 1 });
    expect((await visit(share.key, {}, { ip: "10.31.3.3" })).status).toBe(200);
    const [mail] = await mailsTo(owner.email, "Proposal");
    expect(mail.content).toContain("Visitor: anonymous, from 10.31.3.3");
    const quiet = await gatedShare({ ask_email: 1 });
    expect((await visit(quiet.share.key, { email: address() })).status).toBe(200);
    expect(await mailsTo(quiet.owner.email, "Proposal")).toHaveLength(0);
    const off = await call(oneRoute.PUT, { method: "PUT", token: owner.token, params: { shareId: String(share.id) }, body: { notify_view: 0 } });
    expect(off.status).toBe(200);
    expect((await visit(share.key, {})).status).toBe(200);
    expect(await mailsTo(owner.email, "Proposal")).toHaveLength(1);
  });
});

describe("limits on entering a link", () => {
  it(`refuses an address past ${VISITORS_PER_HOUR} entries into one link in an hour (429 with Retry-After), not another address nor another link`, async () => {
    const { share } = await gatedShare({});
    const ip = "10.31.4.4";
    for (let i = 0; i < VISITORS_PER_HOUR; i++) expect((await visit(share.key, {}, { ip })).status).toBe(200);
    const blocked = await visit(share.key, {}, { ip });
    expectError(blocked, 429, "too_many_requests");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(3000);
    expect((await visit(share.key, {}, { ip: "10.31.4.5" })).status).toBe(200);
    expect((await visit((await gatedShare({})).share.key, {}, { ip })).status).toBe(200);
    // A code is no way around it: asking for one counts too.
    const coded = await gatedShare({ verify_email: 1 });
    for (let i = 0; i < VISITORS_PER_HOUR; i++) await visit(coded.share.key, { email: address() }, { ip: "10.31.4.6" });
    expectError(await visit(coded.share.key, { email: address() }, { ip: "10.31.4.6" }), 429, "too_many_requests");
  }, 120_000);

  it(`mails the owner about at most ${VISITOR_MAILS_PER_HOUR} new visitors of a link an hour; the others are still listed`, async () => {
    const { owner, share } = await gatedShare({ notify_view: 1 });
    for (let i = 0; i <= VISITOR_MAILS_PER_HOUR; i++) expect((await visit(share.key, {}, { ip: `10.31.5.${i}` })).status).toBe(200);
    expect(await mailsTo(owner.email, "Proposal")).toHaveLength(VISITOR_MAILS_PER_HOUR);
    const listed = await (await getDb()).select().from(linkVisitors).where(eq(linkVisitors.shareId, share.id));
    expect(listed).toHaveLength(VISITOR_MAILS_PER_HOUR + 1);
  }, 60_000);
});
