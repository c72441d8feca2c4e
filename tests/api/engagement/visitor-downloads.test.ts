import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as guidTokenRoute from "@/app/api/token/share/[guid]/[type]/[key]/route";
import { downloadByToken } from "@/lib/server/downloads/serve-download";
import { serveShareZip } from "@/lib/server/shares/serve-zip";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { call } from "../../helpers/http";
import { serveNode } from "../../helpers/node-server";
import { bearer } from "../shares/share-helpers";
import { analytics, exportCsv } from "./engagement-calls";
import { address, gatedShare, visitorToken } from "./gate-helpers";

// Downloads and zips answer on Node's own response (pages/api): over real HTTP, as a visitor's browser gets them.
let server: Awaited<ReturnType<typeof serveNode>>;
beforeAll(async () => {
  await openDatabase();
  server = await serveNode((req, res) => (req.url?.startsWith("/api/zip/share/") ? serveShareZip(req, res) : downloadByToken(req, res)));
}, OPEN_TIMEOUT);
afterAll(() => server.close());

async function download(key: string, guid: string, access: string) {
  const res = await call(guidTokenRoute.POST, { method: "POST", params: { key, guid, type: "download" }, headers: bearer(access) });
  expect(res.status, res.text).toBe(200);
  const got = await fetch(`${server.url}/api/file/download?token=${encodeURIComponent(res.body.token as string)}`);
  expect(got.status).toBe(200);
  return Buffer.from(await got.arrayBuffer()).toString();
}

describe("a link visitor's downloads", () => {
  it("count for the visitor who passed the gate: a file and a zip for one, nothing for another", async () => {
    // flags 4: view and download; the gate asks for an email.
    const { owner, file, share } = await gatedShare({ flags: 4, ask_email: 1 });
    const [ann, bob] = [address(), address()];
    const annToken = await visitorToken(share.key, { email: ann });
    await visitorToken(share.key, { email: bob });

    expect(await download(share.key, file.guid, annToken)).toBe("the proposal");
    const zip = await fetch(`${server.url}/api/zip/share/${share.key}`, { headers: bearer(annToken) });
    expect(zip.status).toBe(200);
    await zip.arrayBuffer();

    const body = (await analytics(share.id, owner.token)).body;
    expect(body.downloads).toBe(2);
    const byEmail = new Map(body.visitors_list.map((v: { email: string }) => [v.email, v]));
    expect(byEmail.get(ann)).toMatchObject({ downloads: 2 });
    expect(byEmail.get(bob)).toMatchObject({ downloads: 0 });
    const csv = (await exportCsv(share.id, owner.token)).text;
    expect(csv.split("\r\n").find((line) => line.startsWith(ann))?.split(",")[7]).toBe("2");
  });
});
