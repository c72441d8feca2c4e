import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as oneRoute from "@/app/api/share/[shareId]/route";
import * as createRoute from "@/app/api/share/route";
import { getDb } from "@/db";
import { linkAccessTokens, linkVisitors, shares } from "@/db/schema";
import { publicShareResponse, shareResponse } from "@/lib/contracts/shares";
import { createTestUser } from "../../helpers/factories";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { allRightsBut, grantRight } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { createShare, unlock } from "../shares/share-helpers";
import { address, content, gatedShare, view, visit, visitorToken } from "./gate-helpers";

beforeAll(openDatabase, OPEN_TIMEOUT);

const post = (token: string | null, body: unknown) => call(createRoute.POST, { method: "POST", token, body });
const edit = (token: string | null, id: number, body: unknown) => call(oneRoute.PUT, { method: "PUT", token, params: { shareId: String(id) }, body });
const storedGate = async (shareId: number) => (await (await getDb()).select({ gate: shares.gate }).from(shares).where(eq(shares.id, shareId)))[0].gate;

describe("gate options on POST /share and PUT /share/(id)", () => {
  it("are stored and presented to the owner; a code or a list turns ask_email on; PUT merges; all off is no gate", async () => {
    const { owner, share } = await gatedShare({ verify_email: 1, deny: ["Boss@Corp.com", "@rival.org"], agreement: "  Keep it confidential.  ", notify_view: true });
    expect(shareResponse.parse(share).gate).toEqual({ ask_email: 1, verify_email: 1, allow: [], deny: ["boss@corp.com", "@rival.org"], agreement: "Keep it confidential.", watermark: 0, notify_view: 1 });
    expect(await storedGate(share.id)).toEqual({ askEmail: true, verifyEmail: true, allow: [], deny: ["boss@corp.com", "@rival.org"], agreement: "Keep it confidential.", watermark: false, notifyView: true });

    const merged = await edit(owner.token, share.id, { watermark: 1, allow: ["@corp.com"] });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body.gate).toEqual({ ask_email: 1, verify_email: 1, allow: ["@corp.com"], deny: ["boss@corp.com", "@rival.org"], agreement: "Keep it confidential.", watermark: 1, notify_view: 1 });
    expect((await edit(owner.token, share.id, { name: "Renamed" })).body.gate.watermark).toBe(1);

    const off = await edit(owner.token, share.id, { ask_email: 0, verify_email: 0, allow: [], deny: [], agreement: null, watermark: 0, notify_view: 0 });
    expect(off.body.gate).toEqual({ ask_email: 0, verify_email: 0, allow: [], deny: [], agreement: null, watermark: 0, notify_view: 0 });
    expect(await storedGate(share.id)).toBeNull();
    const plain = await gatedShare();
    expect(plain.share.gate).toMatchObject({ ask_email: 0, allow: [], agreement: null });
    expect(await storedGate(plain.share.id)).toBeNull();
  });

  it("are the owner's only: no token 401, another user 404, a user without the share right 403", async () => {
    const { owner, other, folder, share } = await gatedShare({ ask_email: 1 });
    await expectAuthRequired(oneRoute.PUT, { method: "PUT", params: { shareId: String(share.id) }, body: { deny: ["@x.org"] } });
    expectError(await edit(other.token, share.id, { ask_email: 0 }), 404, "not_found");
    const noShare = await createTestUser();
    await grantRight(folder.id, noShare.id, allRightsBut("share"));
    expectError(await post(noShare.token, { roots: [{ id: folder.id, entity_type: 0 }], ask_email: 1 }), 403);
    expect((await storedGate(share.id))?.askEmail).toBe(true);
    expect(owner.id).toBeGreaterThan(0);
  });

  it("refuse NUL and bidirectional characters, malformed entries and a 1 MB body", async () => {
    const { owner, share } = await gatedShare();
    expectError(await edit(owner.token, share.id, { agreement: "I agree\u0000" }), 400, "invalid_request");
    expectError(await edit(owner.token, share.id, { agreement: "I agree \u202e sdrawkcab" }), 400, "invalid_request");
    expectError(await edit(owner.token, share.id, { deny: ["evil\u2066@x.org"] }), 400, "invalid_request");
    expectError(await edit(owner.token, share.id, { allow: ["not an address"] }), 400, "invalid_request");
    expectError(await edit(owner.token, share.id, { agreement: "x".repeat(20_001) }), 400, "invalid_request");
    expectError(await edit(owner.token, share.id, { agreement: "x".repeat(1024 * 1024) }), 413, "payload_too_large");
    expect(await storedGate(share.id)).toBeNull();
  });
});

describe("ask_email", () => {
  it("refuses the link's content (401) until a visitor's token, asks for the email (400), then lets the visitor in", async () => {
    const { share } = await gatedShare({ ask_email: 1 });
    const refused = await content(share.key);
    expectError(refused, 401, "unauthorized");
    expect(refused.body.error).toContain("/visitor");
    const before = publicShareResponse.parse((await view(share.key)).body);
    expect(before.roots).toBeUndefined();
    expect(before.gate).toEqual({ ask_email: true, verify_email: false, agreement: null, watermark: false, visitor: null });

    const missing = await visit(share.key, {});
    expectError(missing, 400, "invalid_request");
    expect(missing.body.details).toEqual([expect.objectContaining({ path: "email" })]);
    const email = address();
    const token = await visitorToken(share.key, { email: `  ${email.toUpperCase()} ` });
    expect((await content(share.key, token)).status).toBe(200);
    const after = publicShareResponse.parse((await view(share.key, token)).body);
    expect(after.gate.visitor).toEqual({ email });
    expect(after.roots?.length).toBe(1);

    const [row] = await (await getDb()).select().from(linkAccessTokens).where(eq(linkAccessTokens.linkId, share.id));
    expect(row.visitorId).toEqual(expect.any(Number));
    expect(Math.abs(row.expiresAt.getTime() - Date.now() - 2 * 3600_000)).toBeLessThan(60_000);
  });

  it("keeps one visitor per address: a returning visitor gets a new token, first_at kept, last_at moved", async () => {
    const { share } = await gatedShare({ ask_email: 1 });
    const email = address();
    await visitorToken(share.key, { email });
    const db = await getDb();
    await db.update(linkVisitors).set({ firstAt: new Date(Date.now() - 86_400_000), lastAt: new Date(Date.now() - 86_400_000) }).where(eq(linkVisitors.shareId, share.id));
    const again = await visitorToken(share.key, { email });
    const rows = await db.select().from(linkVisitors).where(eq(linkVisitors.shareId, share.id));
    expect(rows).toHaveLength(1);
    expect(Date.now() - rows[0].firstAt.getTime()).toBeGreaterThan(80_000_000);
    expect(Date.now() - rows[0].lastAt.getTime()).toBeLessThan(60_000);
    expect((await content(share.key, again)).status).toBe(200);
  });

  it("refuses another link's visitor token, and a passcheck token without a visitor", async () => {
    const a = await gatedShare({ ask_email: 1 });
    const b = await gatedShare({ ask_email: 1, password: "open-sesame" });
    const tokenOfA = await visitorToken(a.share.key, { email: address() });
    expectError(await content(b.share.key, tokenOfA), 401, "unauthorized");
    expect(publicShareResponse.parse((await view(b.share.key, tokenOfA)).body)).toMatchObject({ unlocked: false, gate: { visitor: null } });
    const unlocked = await unlock(b.share.key, "open-sesame");
    expectError(await content(b.share.key, unlocked), 401, "unauthorized");
    expect(publicShareResponse.parse((await view(b.share.key, unlocked)).body)).toMatchObject({ unlocked: true, gate: { visitor: null } });
  });

  it("on a password-protected link, needs the unlocked request (401) and gives a token that also unlocks it", async () => {
    const { share } = await gatedShare({ ask_email: 1, password: "open-sesame" });
    expectError(await visit(share.key, { email: address() }), 401, "unauthorized");
    const token = await visitorToken(share.key, { email: address() }, await unlock(share.key, "open-sesame"));
    expect((await content(share.key, token)).status).toBe(200);
    expect((await view(share.key, token)).body).toMatchObject({ unlocked: true, name: "Proposal" });
  });

  it("revokes its visitors' tokens when the gate gets stricter, not when it gets looser", async () => {
    const { owner, share } = await gatedShare({ ask_email: 1 });
    const token = await visitorToken(share.key, { email: address() });
    expect((await edit(owner.token, share.id, { watermark: 1, notify_view: 1 })).status).toBe(200);
    expect((await content(share.key, token)).status).toBe(200);
    expect((await edit(owner.token, share.id, { agreement: "New terms" })).status).toBe(200);
    expectError(await content(share.key, token), 401, "unauthorized");
    const next = await visitorToken(share.key, { email: address(), agreement_accepted: 1 });
    expect((await edit(owner.token, share.id, { deny: ["@spam.org"] })).status).toBe(200);
    expectError(await content(share.key, next), 401, "unauthorized");
  });

  it("refuses NUL and bidirectional characters in the email, and a 1 MB body", async () => {
    const { share } = await gatedShare({ ask_email: 1 });
    expectError(await visit(share.key, { email: "a\u0000b@example.org" }), 400, "invalid_request");
    expectError(await visit(share.key, { email: "a\u202eb@example.org" }), 400, "invalid_request");
    expectError(await visit(share.key, { email: "not-an-address" }), 400, "invalid_request");
    expectError(await visit(share.key, { email: address(), code: "12ab56" }), 400, "invalid_request");
    expectError(await visit(share.key, { email: address(), pad: "x".repeat(1024 * 1024) }), 413, "payload_too_large");
    expect(await (await getDb()).select().from(linkVisitors).where(eq(linkVisitors.shareId, share.id))).toHaveLength(0);
  });
});

describe("allow and deny lists", () => {
  it("deny an exact address and a @domain, case-insensitively (403 link_denied)", async () => {
    const { share } = await gatedShare({ deny: ["boss@corp.com", "@rival.org"] });
    expectError(await visit(share.key, { email: "Boss@CORP.com" }), 403, "link_denied");
    expectError(await visit(share.key, { email: "anyone@Rival.org" }), 403, "link_denied");
    expect((await visit(share.key, { email: "staff@corp.com" })).status).toBe(200);
    expect((await visit(share.key, { email: "someone@notrival.org" })).status).toBe(200);
  });

  it("let only the allowed in, deny winning over allow", async () => {
    const { share } = await gatedShare({ allow: ["@corp.com", "friend@home.net"], deny: ["boss@corp.com"] });
    expect((await visit(share.key, { email: "staff@corp.com" })).status).toBe(200);
    expect((await visit(share.key, { email: "friend@home.net" })).status).toBe(200);
    expectError(await visit(share.key, { email: "boss@corp.com" }), 403, "link_denied");
    expectError(await visit(share.key, { email: "stranger@home.net" }), 403, "link_denied");
    expectError(await visit(share.key, { email: "staff@corp.com.evil.io" }), 403, "link_denied");
  });
});

describe("agreement", () => {
  it("is required (400 agreement_required), then kept with time, address and the very text", async () => {
    const { owner, share } = await gatedShare({ ask_email: 1, agreement: "I will not forward these documents." });
    expect(publicShareResponse.parse((await view(share.key)).body).gate.agreement).toBe("I will not forward these documents.");
    const email = address();
    const refused = await visit(share.key, { email });
    expectError(refused, 400, "invalid_request");
    expect(refused.body.details).toEqual([expect.objectContaining({ path: "agreement_accepted", code: "agreement_required" })]);
    expectError(await visit(share.key, { email, agreement_accepted: 0 }), 400, "invalid_request");
    expect((await visit(share.key, { email, agreement_accepted: 1 }, { ip: "10.30.9.9" })).status).toBe(200);
    const db = await getDb();
    const [row] = await db.select().from(linkVisitors).where(eq(linkVisitors.shareId, share.id));
    expect(row).toMatchObject({ email, agreementIp: "10.30.9.9", agreementText: "I will not forward these documents." });
    expect(Date.now() - row.agreementAt!.getTime()).toBeLessThan(60_000);

    await edit(owner.token, share.id, { agreement: "Second version." });
    expect((await visit(share.key, { email, agreement_accepted: true }, { ip: "10.30.9.10" })).status).toBe(200);
    const [again] = await db.select().from(linkVisitors).where(eq(linkVisitors.shareId, share.id));
    expect(again).toMatchObject({ id: row.id, agreementIp: "10.30.9.10", agreementText: "Second version." });
  });

  it("alone (no email asked) gates the content too, for anonymous visitors", async () => {
    const { share } = await gatedShare({ agreement: "Terms" });
    expectError(await content(share.key), 401, "unauthorized");
    const token = await visitorToken(share.key, { agreement_accepted: 1 });
    expect((await content(share.key, token)).status).toBe(200);
    expect(publicShareResponse.parse((await view(share.key, token)).body).gate.visitor).toEqual({ email: null });
  });
});

describe("anonymous visitors", () => {
  it("get a token on a link without a gate, one visitor row per call; the token keeps the link working", async () => {
    const { share } = await gatedShare();
    expect((await content(share.key)).status).toBe(200);
    const first = await visitorToken(share.key, {});
    await visitorToken(share.key, { email: address() });
    const rows = await (await getDb()).select().from(linkVisitors).where(eq(linkVisitors.shareId, share.id));
    expect(rows.map((r) => r.email)).toEqual([null, null]);
    expect((await content(share.key, first)).status).toBe(200);
    const seen = publicShareResponse.parse((await view(share.key, first)).body);
    expect(seen.gate).toEqual({ ask_email: false, verify_email: false, agreement: null, watermark: false, visitor: { email: null } });
    expect(seen.roots?.length).toBe(1);
  });

  it("are refused on unknown keys (404) and expired links (410)", async () => {
    const { share } = await gatedShare();
    expectError(await visit("no-such-key", {}), 404, "link_not_found");
    await (await getDb()).update(shares).set({ expirationDate: new Date(Date.now() - 1000) }).where(eq(shares.id, share.id));
    expectError(await visit(share.key, {}), 410, "link_expired");
  });
});

describe("GET /share/key/(key) gate", () => {
  it("says what the gate asks, never its lists", async () => {
    const { share } = await gatedShare({ verify_email: 1, allow: ["@secret-client.com"], deny: ["rival@hidden.org"], watermark: 1 });
    const res = await view(share.key);
    const body = publicShareResponse.parse(res.body);
    expect(body.gate).toEqual({ ask_email: true, verify_email: true, agreement: null, watermark: true, visitor: null });
    expect(res.text).not.toContain("secret-client");
    expect(res.text).not.toContain("hidden.org");
    expect(res.text).not.toContain("allow");
  });

  it("keeps a gateless link's view as before", async () => {
    const { owner, folder } = await gatedShare();
    const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }] });
    const body = publicShareResponse.parse((await view(share.key)).body);
    expect(body).toMatchObject({ unlocked: true, gate: { ask_email: false, visitor: null } });
    expect(body.roots?.length).toBe(1);
  });
});
