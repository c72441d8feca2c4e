import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as contentRoute from "@/app/api/preview/[fileId]/content/route";
import * as previewRoute from "@/app/api/preview/[fileId]/route";
import * as guidTokenRoute from "@/app/api/token/share/[guid]/[type]/[key]/route";
import * as keyTokenRoute from "@/app/api/token/share/download/[key]/route";
import { downloadByToken } from "@/lib/server/downloads/serve-download";
import { TEXT_SCREEN_LINES } from "@/lib/server/previews/text-rendition";
import { createTestUser } from "../../helpers/factories";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { allRightsBut, createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { serveNode } from "../../helpers/node-server";
import { createShare } from "../shares/share-helpers";
import { callBytes } from "./fixtures";

// Issue 25, finding 13: the preview of a text handed out its whole content (256 KiB), any number
// of times, through preview-only and single-download links.
beforeAll(openDatabase, OPEN_TIMEOUT);
let downloads: Awaited<ReturnType<typeof serveNode>>;
beforeAll(async () => {
  downloads = await serveNode(downloadByToken);
});
afterAll(() => downloads.close());

const at = (versionId: number) => ({ params: { fileId: String(versionId) } });
const rows = (count: number, mark = "secret") => Array.from({ length: count }, (_, i) => `row ${i + 1};${mark}-${(i + 1) * 7919};"quoted" & <tagged>`);
const PRICES = rows(2000).join("\n");

/** An owner's folder with a 2,000-row CSV, the same CSV cut after its first screen of rows, and one whose first row differs. */
async function scene(flags: number) {
  const owner = await createTestUser();
  const folder = await createFolder(owner, owner.privateRootId!, "Price lists");
  const prices = await uploadText(owner, folder.id, "prices.csv", PRICES);
  const head = await uploadText(owner, folder.id, "head.csv", `${rows(TEXT_SCREEN_LINES).join("\n")}\nand more`);
  const other = await uploadText(owner, folder.id, "other.csv", [`row 1;changed`, ...rows(1999).slice(1)].join("\n"));
  const share = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }], flags });
  return { owner, folder, prices, head, other, share };
}

async function previewToken(key: string, guid: string) {
  const res = await call(guidTokenRoute.POST, { method: "POST", params: { key, guid, type: "preview" } });
  expect(res.status, res.text).toBe(200);
  return res.body.token as string;
}

/** What a visitor holding `token` sees: the preview page, and the picture its one image loads. */
async function visit(versionId: number, token: string | null, session?: string) {
  const page = await call(previewRoute.GET, { ...at(versionId), query: token ? { token } : {}, token: session });
  expect(page.status, page.text).toBe(200);
  const src = /<img class="page" src="([^"]+)"/.exec(page.text)?.[1]?.replace(/&amp;/g, "&");
  const url = src ? new URL(src, "http://coffre.test") : null;
  const picture = url ? await callBytes(contentRoute.GET, { ...at(versionId), query: Object.fromEntries(url.searchParams) }) : null;
  return { page, url, picture };
}

/** The text never leaves as characters: neither the page nor the picture holds any of its rows. */
function expectFirstScreenPicture(seen: Awaited<ReturnType<typeof visit>>) {
  expect(seen.page.text).not.toContain("secret-");
  expect(seen.page.text).not.toContain("<pre>");
  expect(seen.url?.searchParams.get("page")).toBe("1");
  expect(seen.picture?.status).toBe(200);
  expect(seen.picture?.headers.get("content-type")).toBe("image/png");
  expect(seen.picture!.bytes.includes("secret-")).toBe(false);
}

describe("text previews through links without the original", () => {
  it("a preview-only link shows a picture of the text's first screen, the same on every visit, and nothing past it", async () => {
    const { prices, head, other, share } = await scene(2);
    const token = await previewToken(share.key, prices.file.guid);
    const first = await visit(prices.version.id, token);
    expectFirstScreenPicture(first);
    const { width, height } = await sharp(first.picture!.bytes).metadata();
    expect(width).toBeLessThanOrEqual(1000);
    expect(height).toBeLessThan(2500);
    // The content route without `page` answers the same picture, never the original; no second screen.
    const bare = await callBytes(contentRoute.GET, { ...at(prices.version.id), query: { token } });
    expect(bare.headers.get("content-type")).toBe("image/png");
    expect(bare.bytes.equals(first.picture!.bytes)).toBe(true);
    expectError(await call(contentRoute.GET, { ...at(prices.version.id), query: { token, page: "2" } }), 404, "not_found");
    expect((await visit(prices.version.id, token)).picture!.bytes.equals(first.picture!.bytes)).toBe(true);

    // The picture is the first screen: the 2,000-row file shows what its first 80 rows followed by
    // anything show, and a different first row shows differently.
    const cut = await visit(head.version.id, await previewToken(share.key, head.file.guid));
    expect(cut.picture!.bytes.equals(first.picture!.bytes)).toBe(true);
    const changed = await visit(other.version.id, await previewToken(share.key, other.file.guid));
    expect(changed.picture!.bytes.equals(first.picture!.bytes)).toBe(false);
  });

  it("a single-download link's preview gives the picture only, and its one download still sells the whole text", async () => {
    const { owner, prices } = await scene(2);
    const share = await createShare(owner, { roots: [{ id: prices.version.id, entity_type: 1 }], flags: 128 });
    for (let i = 0; i < 3; i++) expectFirstScreenPicture(await visit(prices.version.id, await previewToken(share.key, prices.file.guid)));
    const downloadToken = () => call(keyTokenRoute.POST, { method: "POST", params: { key: share.key } });
    const token = await downloadToken();
    expect(token.status, token.text).toBe(200);
    const bought = await fetch(`${downloads.url}/api/file/download?token=${encodeURIComponent(token.body.token)}`);
    expect(bought.status).toBe(200);
    expect(await bought.text()).toBe(PRICES);
    expectError(await downloadToken(), 410, "link_exhausted");
  });

  it("a reader without the download right sees the picture; the owner and a view-and-download link see the text", async () => {
    const { owner, folder, prices } = await scene(2);
    const reader = await createTestUser();
    await grantRight(folder.id, reader.id, allRightsBut("download"));
    expectFirstScreenPicture(await visit(prices.version.id, null, reader.token));

    const own = await call(previewRoute.GET, { ...at(prices.version.id), token: owner.token });
    expect(own.text).toContain("<pre>row 1;secret-7919;&quot;quoted&quot; &amp; &lt;tagged&gt;\nrow 2;");
    const open = await createShare(owner, { roots: [{ id: folder.id, entity_type: 0 }], flags: 4 });
    const original = await callBytes(contentRoute.GET, { ...at(prices.version.id), query: { token: await previewToken(open.key, prices.file.guid) } });
    expect(original.status).toBe(200);
    expect(original.bytes.toString()).toBe(PRICES);
  });
});
