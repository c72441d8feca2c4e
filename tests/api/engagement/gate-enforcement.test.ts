import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as mixerRoute from "@/app/api/mixer/[fileId]/route";
import * as passcheckRoute from "@/app/api/share/key/[key]/passcheck/route";
import * as sharelinkDownloadRoute from "@/app/api/sharelink/download/[key]/route";
import * as sharelinkKeyRoute from "@/app/api/sharelink/key/[key]/route";
import * as tokenRoute from "@/app/api/token/share/[guid]/[type]/[key]/route";
import * as downloadTokenRoute from "@/app/api/token/share/download/[key]/route";
import { getDb } from "@/db";
import { resolveLinkVisitor } from "@/lib/server/links/resolve-link-visitor";
import { serveShareZip } from "@/lib/server/shares/serve-zip";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { call, expectError } from "../../helpers/http";
import { serveNode } from "../../helpers/node-server";
import { bearer, createShare } from "../shares/share-helpers";
import { address, gatedShare, visitorToken } from "./gate-helpers";

// A gate asking for an email or an agreement guards every public operation of the link but its
// own view, passcheck, sms and the visitor route: each is checked here before and after the token.

beforeAll(openDatabase, OPEN_TIMEOUT);

let node: Awaited<ReturnType<typeof serveNode>>;
beforeAll(async () => {
  node = await serveNode((req, res) => serveShareZip(req, res));
});
afterAll(() => node.close());

const zip = (key: string, token?: string) => fetch(`${node.url}/api/zip/share/${encodeURIComponent(key)}`, { headers: bearer(token) });
const fileToken = (key: string, guid: string, token?: string) => call(tokenRoute.POST, { method: "POST", params: { guid, type: "download", key }, headers: bearer(token) });
const onlyToken = (key: string, token?: string) => call(downloadTokenRoute.POST, { method: "POST", params: { key }, headers: bearer(token) });
// The mixer authenticates users by Authorization: a visitor's token goes in the query, as the page sends it.
// The mixer takes the contract's File id: a version id (files.id only matches it on a fresh database).
const mixer = (fileId: number, key: string, token?: string) => call(mixerRoute.GET, { method: "GET", params: { fileId: String(fileId) }, query: { key, state: 1, ...(token ? { access_token: token } : {}) } });
const legacyView = (key: string, token?: string) => call(sharelinkKeyRoute.GET, { method: "GET", params: { key }, headers: bearer(token) });
const legacyDownload = (key: string, token?: string) => call(sharelinkDownloadRoute.GET, { method: "GET", params: { key }, headers: bearer(token) });

describe("a gated link", () => {
  it("refuses tokens, zip, thumbnails and the legacy routes (401) until a visitor's token, then serves them", async () => {
    const { owner, file, version, folder } = await gatedShare();
    const share = await createShare(owner, { roots: [{ id: version.id, entity_type: 1 }], ask_email: 1, name: "One file" });
    const guid = share.roots[0].guid!;

    expectError(await fileToken(share.key, guid), 401, "unauthorized");
    expectError(await onlyToken(share.key), 401, "unauthorized");
    expectError(await mixer(version.id, share.key), 401, "unauthorized");
    expectError(await legacyDownload(share.key), 401, "unauthorized");
    const legacy = await legacyView(share.key);
    expect(legacy.status, legacy.text).toBe(200);
    expect(legacy.text).not.toContain(file.name);
    const refusedZip = await zip(share.key);
    expect(refusedZip.status).toBe(401);

    const token = await visitorToken(share.key, { email: address() });
    expect((await fileToken(share.key, guid, token)).status).toBe(200);
    expect((await onlyToken(share.key, token)).status).toBe(200);
    expect((await mixer(version.id, share.key, token)).status).toBe(200);
    expect((await legacyDownload(share.key, token)).status).toBe(302);
    expect((await legacyView(share.key, token)).text).toContain(file.name);
    const folderShare = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }], agreement: "Terms" });
    expect((await zip(folderShare.key)).status).toBe(401);
    const zipped = await zip(folderShare.key, await visitorToken(folderShare.key, { agreement_accepted: 1 }));
    expect(zipped.status).toBe(200);
    await zipped.arrayBuffer();
  });

  it("answers its own view and passcheck before the visitor; the visit carries the visitor's id", async () => {
    const { share } = await gatedShare({ ask_email: 1, password: "open-sesame" });
    const unlocked = await call(passcheckRoute.POST, { method: "POST", params: { key: share.key }, body: { password: "open-sesame" } });
    expect(unlocked.status).toBe(200);
    const db = await getDb();
    const request = (token: string) => new Request("http://coffre.test/api/x", { headers: bearer(token) });
    await expect(resolveLinkVisitor(db, request(unlocked.body.access_token), share.key, { kind: "share" })).rejects.toMatchObject({ status: 401 });
    await expect(resolveLinkVisitor(db, request(unlocked.body.access_token), share.key, { kind: "share", beforeVisitor: true })).resolves.toMatchObject({ unlocked: true, visitorId: null });
    const token = await visitorToken(share.key, { email: address() }, unlocked.body.access_token);
    const visit = await resolveLinkVisitor(db, request(token), share.key, { kind: "share" });
    expect(visit).toMatchObject({ unlocked: true, visitorId: expect.any(Number) });
  });

  it("leaves a gateless link as before: no token needed, a passcheck token has no visitor", async () => {
    const { owner, version } = await gatedShare();
    const share = await createShare(owner, { roots: [{ id: version.id, entity_type: 1 }], watermark: 1, notify_view: 1 });
    expect((await onlyToken(share.key)).status).toBe(200);
    const visit = await resolveLinkVisitor(await getDb(), new Request("http://coffre.test/api/x"), share.key, { kind: "share" });
    expect(visit).toMatchObject({ unlocked: true, visitorId: null });
  });
});
