import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as contentRoute from "@/app/api/share/content/[key]/route";
import * as keyRoute from "@/app/api/share/key/[key]/route";
import * as ulinkKeyRoute from "@/app/api/ulink/key/[key]/route";
import * as ulinkPasscheckRoute from "@/app/api/ulink/key/[key]/passcheck/route";
import { getDb } from "@/db";
import { linkAccessTokens, shares } from "@/db/schema";
import { hashToken } from "@/lib/server/auth/tokens";
import { readVisitorCredentials, resolveLinkVisitor } from "@/lib/server/links/resolve-link-visitor";
import { serveShareZip } from "@/lib/server/shares/serve-zip";
import { depositEndpoint } from "@/lib/server/uploads/upload-endpoints";
import { nodeRoute } from "@/lib/server/http/node-route";
import { createFileScene, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { createFolder, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { serveNode } from "../../helpers/node-server";
import { bearer, createShare, unlock } from "../shares/share-helpers";
import { createLink, expire } from "../ulinks/ulink-helpers";

// The one resolver of link visitors (route({ auth: "link" }), the mixer, the Node server's zip and
// deposits): each refusal is checked on the resolver itself, on a route() path and on a Node path.

beforeAll(openDatabase, OPEN_TIMEOUT);

let node: Awaited<ReturnType<typeof serveNode>>;
const deposit = nodeRoute(depositEndpoint);
beforeAll(async () => {
  node = await serveNode((req, res) => {
    const drop = /^\/api\/ulink\/key\/([^/?]+)\/upload/.exec(req.url ?? "");
    return drop ? deposit(req, res, { key: decodeURIComponent(drop[1]) }) : serveShareZip(req, res);
  });
});
afterAll(() => node.close());

const zip = (key: string, query = "", headers: Record<string, string> = {}) => fetch(`${node.url}/api/zip/share/${encodeURIComponent(key)}${query}`, { headers });
const content = (key: string, headers: Record<string, string> = {}, query: Record<string, string> = {}) => call(contentRoute.GET, { method: "GET", params: { key }, headers, query });
const request = (query = "", headers: Record<string, string> = {}) => new Request(`http://coffre.test/api/x${query}`, { headers });

async function expectNodeError(res: Response, status: number, code: string) {
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(body.code).toBe(code);
}

async function sharedFolder() {
  const { owner, folder } = await createFileScene();
  const shared = await createFolder(owner, folder.id, "Visited");
  await uploadText(owner, shared.id, "inside.txt", "visitor bytes");
  return { owner, shared };
}

describe("readVisitorCredentials", () => {
  it("takes the access token from Authorization: Bearer first, else from access_token; r names the recipient", () => {
    expect(readVisitorCredentials(request("?access_token=query", { authorization: "Bearer header" }))).toEqual({ accessToken: "header", recipientKey: null });
    expect(readVisitorCredentials(request("?access_token=query&r=rk"))).toEqual({ accessToken: "query", recipientKey: "rk" });
    expect(readVisitorCredentials(request("?access_token="))).toEqual({ accessToken: null, recipientKey: null });
    expect(readVisitorCredentials(request(`?r=${"x".repeat(201)}`)).recipientKey).toBeNull();
  });

  it("refuses a NUL in access_token or r (400), never reaching the database", () => {
    expect(() => readVisitorCredentials(request("?access_token=a%00b"))).toThrow(/NUL/);
    expect(() => readVisitorCredentials(request("?r=a%00b"))).toThrow(/NUL/);
  });
});

describe("resolveLinkVisitor", () => {
  it("opens an unprotected share without a token, and a protected one only with its own live access token", async () => {
    const db = await getDb();
    const { owner, shared } = await sharedFolder();
    const open = await createShare(owner, { roots: [{ id: shared.id, entity_type: 0 }] });
    await expect(resolveLinkVisitor(db, request(), open.key, { kind: "share" })).resolves.toMatchObject({ kind: "share", unlocked: true, accessToken: null, share: { id: open.id } });

    const locked = await createShare(owner, { roots: [{ id: shared.id, entity_type: 0 }], password: "visitor-pass" });
    const other = await createShare(owner, { roots: [{ id: shared.id, entity_type: 0 }], password: "visitor-pass" });
    const token = await unlock(locked.key, "visitor-pass");
    const otherToken = await unlock(other.key, "visitor-pass");
    await expect(resolveLinkVisitor(db, request(), locked.key, { kind: "share" })).rejects.toMatchObject({ status: 401 });
    await expect(resolveLinkVisitor(db, request("?access_token=wrong"), locked.key, { kind: "share" })).rejects.toMatchObject({ status: 401 });
    await expect(resolveLinkVisitor(db, request("", bearer(otherToken)), locked.key, { kind: "share" })).rejects.toMatchObject({ status: 401 });
    await expect(resolveLinkVisitor(db, request("", bearer(token)), locked.key, { kind: "share" })).resolves.toMatchObject({ unlocked: true, accessToken: token });
    // The link's own pages answer while it is locked, saying so.
    await expect(resolveLinkVisitor(db, request(), locked.key, { kind: "share", allowLocked: true })).resolves.toMatchObject({ unlocked: false });

    await db.update(linkAccessTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(linkAccessTokens.tokenHash, hashToken(token)));
    await expect(resolveLinkVisitor(db, request("", bearer(token)), locked.key, { kind: "share" })).rejects.toMatchObject({ status: 401 });
  });

  it("answers 404 for an unknown key or a key of the other kind, 410 for an expired link, 400 for a malformed key", async () => {
    const db = await getDb();
    const { owner, shared } = await sharedFolder();
    const share = await createShare(owner, { roots: [{ id: shared.id, entity_type: 0 }] });
    const drop = await createLink(owner, { folder_id: shared.id });
    await expect(resolveLinkVisitor(db, request(), "no-such-key", { kind: "share" })).rejects.toMatchObject({ status: 404, code: "link_not_found" });
    await expect(resolveLinkVisitor(db, request(), share.key, { kind: "ulink" })).rejects.toMatchObject({ status: 404, code: "link_not_found" });
    await expect(resolveLinkVisitor(db, request(), drop.key, { kind: "share" })).rejects.toMatchObject({ status: 404, code: "link_not_found" });
    await expect(resolveLinkVisitor(db, request(), "", { kind: "share" })).rejects.toMatchObject({ name: "ZodError" });
    await expect(resolveLinkVisitor(db, request(), drop.key, { kind: "ulink" })).resolves.toMatchObject({ kind: "ulink", unlocked: true, folderId: shared.id, owner: { id: owner.id } });
    await db.update(shares).set({ expirationDate: new Date(Date.now() - 1000) }).where(eq(shares.id, share.id));
    await expire(drop.id);
    await expect(resolveLinkVisitor(db, request(), share.key, { kind: "share", allowLocked: true })).rejects.toMatchObject({ status: 410, code: "link_expired" });
    await expect(resolveLinkVisitor(db, request(), drop.key, { kind: "ulink", allowLocked: true })).rejects.toMatchObject({ status: 410, code: "link_expired" });
  });
});

describe("route({ auth: \"link\" }) and the Node paths", () => {
  it("serve an unprotected link (200) and refuse a protected one without, with a wrong or with another link's token (401)", async () => {
    const { owner, shared } = await sharedFolder();
    const open = await createShare(owner, { roots: [{ id: shared.id, entity_type: 0 }] });
    expect((await content(open.key)).status).toBe(200);
    expect((await zip(open.key)).status).toBe(200);

    const locked = await createShare(owner, { roots: [{ id: shared.id, entity_type: 0 }], password: "route-pass" });
    const token = await unlock(locked.key, "route-pass");
    const otherToken = await unlock((await createShare(owner, { roots: [{ id: shared.id, entity_type: 0 }], password: "route-pass" })).key, "route-pass");
    expectError(await content(locked.key), 401, "unauthorized");
    expectError(await content(locked.key, bearer("not-a-token")), 401, "unauthorized");
    expectError(await content(locked.key, bearer(otherToken)), 401, "unauthorized");
    expect((await content(locked.key, {}, { access_token: token })).status).toBe(200);
    await expectNodeError(await zip(locked.key), 401, "unauthorized");
    await expectNodeError(await zip(locked.key, "", bearer(otherToken)), 401, "unauthorized");
    expect((await zip(locked.key, `?access_token=${encodeURIComponent(token)}`)).status).toBe(200);
    // The key view answers a locked link, content-free.
    expect((await call(keyRoute.GET, { method: "GET", params: { key: locked.key } })).body).toMatchObject({ unlocked: false, name: null });
  });

  it("refuse a NUL in access_token (400) on route() and on the Node server alike", async () => {
    const { owner, shared } = await sharedFolder();
    const share = await createShare(owner, { roots: [{ id: shared.id, entity_type: 0 }] });
    expectError(await content(share.key, {}, { access_token: "a\u0000b" }), 400, "invalid_request");
    await expectNodeError(await zip(share.key, "?access_token=a%00b"), 400, "invalid_request");
  });

  it("answer 410 for an expired share and an expired drop link, before any token is looked at", async () => {
    const { owner, shared } = await sharedFolder();
    const share = await createShare(owner, { roots: [{ id: shared.id, entity_type: 0 }], password: "late-pass" });
    const drop = await createLink(owner, { folder_id: shared.id, password: "late-pass" });
    await (await getDb()).update(shares).set({ expirationDate: new Date(Date.now() - 1000) }).where(eq(shares.id, share.id));
    await expire(drop.id);
    expectError(await content(share.key, bearer("whatever")), 410, "link_expired");
    await expectNodeError(await zip(share.key), 410, "link_expired");
    expectError(await call(ulinkKeyRoute.GET, { method: "GET", params: { key: drop.key } }), 410, "link_expired");
    expectError(await call(ulinkPasscheckRoute.POST, { method: "POST", params: { key: drop.key }, body: { password: "late-pass" } }), 410, "link_expired");
    const form = new FormData();
    form.append("targetFile", new Blob(["late"]), "late.txt");
    await expectNodeError(await fetch(`${node.url}/api/ulink/key/${drop.key}/upload`, { method: "POST", body: form }), 410, "link_expired");
  });

  it("refuse a deposit through a protected drop link without its token, or with the token of another drop link (401)", async () => {
    const { owner, shared } = await sharedFolder();
    const drop = await createLink(owner, { folder_id: shared.id, password: "drop-pass" });
    const other = await createLink(owner, { folder_id: shared.id, password: "drop-pass" });
    const passcheck = (key: string) => call(ulinkPasscheckRoute.POST, { method: "POST", params: { key }, body: { password: "drop-pass" }, headers: { "x-forwarded-for": "10.9.0.1" } });
    const token = (await passcheck(drop.key)).body.access_token as string;
    const otherToken = (await passcheck(other.key)).body.access_token as string;
    const send = (headers: Record<string, string>) => {
      const form = new FormData();
      form.append("targetFile", new Blob(["dropped bytes"]), `dropped-${Math.random()}.txt`);
      return fetch(`${node.url}/api/ulink/key/${drop.key}/upload`, { method: "POST", body: form, headers });
    };
    await expectNodeError(await send({}), 401, "unauthorized");
    await expectNodeError(await send(bearer(otherToken)), 401, "unauthorized");
    expect((await send(bearer(token))).status).toBe(201);
  });
});
