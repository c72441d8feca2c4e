import { and, desc, eq, like } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as logoRoute from "@/app/api/config/logo/route";
import * as configRoute from "@/app/api/config/route";
import * as publicConfigRoute from "@/app/api/publicconfig/route";
import * as userRoute from "@/app/api/user/route";
import { getDb } from "@/db";
import { emails, logs } from "@/db/schema";
import { configResponse, DEFAULT_BRAND_COLOR, publicConfigResponse } from "@/lib/contracts/config";
import { collectBlobs } from "@/lib/server/blobs/collect-blobs";
import { readStoredConfig } from "@/lib/server/config/platform-config";
import { getBlobStore } from "@/lib/storage";
import { ageBlob, blobExists } from "../../helpers/blob-files";
import { createAdmin, createTestGroup, createTestUser, unique, type TestUser } from "../../helpers/factories";
import { call, expectError, type CallOptions } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { multipartStream } from "../account/multipart-body";

// The platform configuration is global and test files run in parallel: the colour and logo are
// branding only (no other test reads them), and are put back at the end.

beforeAll(async () => {
  await getDb();
});

const stored = async () => readStoredConfig(await getDb());
const put = (token: string, body: unknown) => call(configRoute.PUT, { method: "PUT", token, body });
const png = (width: number, height: number) => sharp({ create: { width, height, channels: 4, background: { r: 15, g: 118, b: 110, alpha: 1 } } }).png().toBuffer();
const SVG_WITH_SCRIPT = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><script>alert("owned")</script><rect width="120" height="40" fill="#0f766e"/></svg>`;

function form(content: Uint8Array | string, part = "targetFile", type = "image/png"): FormData {
  const body = new FormData();
  body.append(part, new Blob([typeof content === "string" ? content : new Uint8Array(content)], { type }), "logo.bin");
  return body;
}

async function upload(token: string | null, body: FormData, options: CallOptions = {}) {
  const { body: rawBody, contentType } = await multipartStream(body);
  return call(logoRoute.POST, { method: "POST", token, rawBody, headers: { "content-type": contentType }, ...options });
}

/** GET /api/config/logo as a browser would, without a token; the body as bytes. */
async function fetchLogo(url = "/api/config/logo", headers: Record<string, string> = {}) {
  const res = await logoRoute.GET(new Request(`http://coffre.test${url}`, { headers }), { params: Promise.resolve({}) });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

const publicConfig = async () => publicConfigResponse.strict().parse((await call(publicConfigRoute.GET, {})).body);

let admin: TestUser;
let original: Awaited<ReturnType<typeof stored>>;
beforeAll(async () => {
  admin = await createAdmin();
  original = await stored();
});
afterAll(async () => {
  await put(admin.token, { brand_color: original.brand_color });
  if (!original.logo) await call(logoRoute.DELETE, { method: "DELETE", token: admin.token });
});

describe("brand colour", () => {
  afterEach(async () => {
    await put(admin.token, { brand_color: original.brand_color });
  });

  it("defaults to the pages' accent and is in GET /config and GET /publicconfig", async () => {
    expect(DEFAULT_BRAND_COLOR).toBe("#2f5bd3");
    const config = configResponse.strict().parse((await call(configRoute.GET, { token: admin.token })).body);
    expect(config.brand_color).toMatch(/^#[0-9a-f]{6}$/);
    expect((await publicConfig()).brand_color).toBe(config.brand_color);
  });

  it("is changed by administrators through PUT /config, stored in lower case, logged, shown at once", async () => {
    const res = await put(admin.token, { brand_color: "#0F766E" });
    expect(res.status, res.text).toBe(200);
    expect(configResponse.strict().parse(res.body).brand_color).toBe("#0f766e");
    expect((await stored()).brand_color).toBe("#0f766e");
    expect((await publicConfig()).brand_color).toBe("#0f766e");
    const db = await getDb();
    const [entry] = await db.select().from(logs).where(and(eq(logs.type, "ADMLLOG_CONFIG"), like(logs.message, '%brand_color="#0f766e"%'))).orderBy(desc(logs.id)).limit(1);
    expect(entry).toMatchObject({ userId: admin.id, objectType: "config" });
  });

  it("refuses what is not #rrggbb (400 naming brand_color), changing nothing", async () => {
    await put(admin.token, { brand_color: "#123456" });
    for (const bad of ["red", "#12345", "#1234567", "#12345g", "url(javascript:x)", "#123456;background:url(x)", 0x123456, null]) {
      const res = await put(admin.token, { brand_color: bad });
      expectError(res, 400, "invalid_request");
      expect(res.body.details).toEqual([expect.objectContaining({ path: "brand_color" })]);
    }
    expect((await stored()).brand_color).toBe("#123456");
  });

  it("cannot point the logo at a blob through PUT /config", async () => {
    const res = await put(admin.token, { logo: { blob_id: "some-private-file-blob", mime: "image/png", width: 1, height: 1 } });
    expectError(res, 400, "invalid_request");
    expectError(await put(admin.token, { logo_url: "https://evil.test/x.png" }), 400, "invalid_request");
  });

  it("is changed by administrators only", async () => {
    const user = await createTestUser();
    const manager = await createTestUser({ role: 4 });
    await createTestGroup({ members: [user.id], managers: [manager.id] });
    for (const token of [user.token, manager.token]) expectError(await put(token, { brand_color: "#000000" }), 403, "forbidden");
    await expectAuthRequired(configRoute.PUT, { method: "PUT", body: { brand_color: "#000000" } });
    expect((await stored()).brand_color).toBe(original.brand_color);
  });
});

describe("platform logo", () => {
  afterEach(async () => {
    await call(logoRoute.DELETE, { method: "DELETE", token: admin.token });
  });

  it("stores a re-encoded PNG within 512 px, serves it without a token, cacheable with an ETag, named in the configs", async () => {
    expectError(await call(logoRoute.GET, {}), 404, "not_found");
    expect((await publicConfig()).logo_url).toBeNull();

    const source = await sharp(await png(1200, 300)).jpeg().withMetadata({ orientation: 1, exif: { IFD0: { Copyright: "secret-exif" } } }).toBuffer();
    const res = await upload(admin.token, form(source, "targetFile", "image/jpeg"));
    expect(res.status, res.text).toBe(200);
    const logoUrl: string = res.body.logo_url;
    expect(logoUrl).toMatch(/^\/api\/config\/logo\?v=[0-9a-f]{16}$/);
    expect((await publicConfig()).logo_url).toBe(logoUrl);
    expect(configResponse.strict().parse((await call(configRoute.GET, { token: admin.token })).body).logo_url).toBe(logoUrl);
    const logo = (await stored()).logo!;
    // The public address never tells the blob id.
    expect(logoUrl).not.toContain(logo.blob_id);

    const served = await fetchLogo(logoUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const etag = served.headers.get("etag")!;
    expect(etag).toBe(`"${logoUrl.split("v=")[1]}"`);
    const meta = await sharp(served.bytes).metadata();
    expect(meta).toMatchObject({ format: "png", width: 512, height: 128 });
    expect(meta.exif).toBeUndefined();
    expect(served.bytes.includes(Buffer.from("secret-exif"))).toBe(false);

    // Without the version (an old address), caches must check back; the ETag answers 304.
    const unversioned = await fetchLogo();
    expect(unversioned.headers.get("cache-control")).toBe("public, no-cache");
    expect((await fetchLogo("/api/config/logo", { "if-none-match": etag })).status).toBe(304);

    const db = await getDb();
    const [entry] = await db.select().from(logs).where(and(eq(logs.type, "ADMLLOG_CONFIG"), eq(logs.object, "logo"))).orderBy(desc(logs.id)).limit(1);
    expect(entry).toMatchObject({ userId: admin.id, message: "Changed the platform logo (512x128 PNG)" });
  });

  it("never serves the uploaded bytes: an SVG with a script comes back as a PNG", async () => {
    const res = await upload(admin.token, form(SVG_WITH_SCRIPT, "targetFile", "image/svg+xml"));
    expect(res.status, res.text).toBe(200);
    const served = await fetchLogo(res.body.logo_url);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect((await sharp(served.bytes).metadata()).format).toBe("png");
    expect(served.bytes.includes(Buffer.from("script"))).toBe(false);
  });

  it("replaces the previous logo (new address, old blob deleted), and DELETE removes it", async () => {
    const first = await upload(admin.token, form(await png(64, 64)));
    const firstBlob = (await stored()).logo!.blob_id;
    const second = await upload(admin.token, form(await png(80, 40)));
    expect(second.status, second.text).toBe(200);
    expect(second.body.logo_url).not.toBe(first.body.logo_url);
    const secondBlob = (await stored()).logo!.blob_id;
    expect(await getBlobStore().size(firstBlob)).toBeNull();
    expect(await sharp((await fetchLogo(second.body.logo_url)).bytes).metadata()).toMatchObject({ width: 80, height: 40 });

    expect((await call(logoRoute.DELETE, { method: "DELETE", token: admin.token })).status).toBe(204);
    expect((await stored()).logo).toBeNull();
    expect(await getBlobStore().size(secondBlob)).toBeNull();
    expectError(await call(logoRoute.GET, {}), 404, "not_found");
    expect((await publicConfig()).logo_url).toBeNull();
    expect((await call(logoRoute.DELETE, { method: "DELETE", token: admin.token })).status).toBe(204);
  });

  it("is kept by the blob collection, however old", async () => {
    await upload(admin.token, form(await png(64, 64)));
    const blobId = (await stored()).logo!.blob_id;
    await ageBlob(blobId, 2 * 3_600_000);
    await collectBlobs(await getDb());
    expect(await blobExists(blobId)).toBe(true);
    expect((await fetchLogo()).status).toBe(200);
  });

  it("refuses what is not an image (400) and a file over 2 MB (413), keeping the current logo", async () => {
    await upload(admin.token, form(await png(64, 64)));
    const before = (await stored()).logo;
    const text = await upload(admin.token, form("just some text", "targetFile", "text/plain"));
    expectError(text, 400, "invalid_request");
    expect(text.body.error).toMatch(/not an image/);
    const big = new Uint8Array(2 * 1024 * 1024 + 1);
    big.set(await png(64, 64), 0);
    const tooLarge = await upload(admin.token, form(big));
    expectError(tooLarge, 413, "payload_too_large");
    expect(tooLarge.body.error).toContain("2 MB");
    const missing = await upload(admin.token, form(await png(10, 10), "otherPart"));
    expectError(missing, 400, "invalid_request");
    expectError(await call(logoRoute.POST, { method: "POST", token: admin.token, body: { targetFile: "x" } }), 415);
    expect((await stored()).logo).toEqual(before);
  });

  it("is changed by administrators only: no token, a user and a manager are refused", async () => {
    await upload(admin.token, form(await png(64, 64)));
    const before = (await stored()).logo;
    const user = await createTestUser();
    const manager = await createTestUser({ role: 4 });
    await createTestGroup({ members: [user.id], managers: [manager.id] });
    await expectAuthRequired(logoRoute.POST, { method: "POST", rawBody: form(await png(20, 20)) });
    await expectAuthRequired(logoRoute.DELETE, { method: "DELETE" });
    for (const token of [user.token, manager.token]) {
      expectError(await upload(token, form(await png(20, 20))), 403, "forbidden");
      expectError(await call(logoRoute.DELETE, { method: "DELETE", token }), 403, "forbidden");
      // Acting as an administrator is not theirs to do either.
      expectError(await upload(token, form(await png(20, 20)), { headers: { asid: String(admin.id) } }), 403);
    }
    expect((await stored()).logo).toEqual(before);
    expectError(await call(logoRoute.PUT, { method: "PUT", token: admin.token, body: {} }), 405, "method_not_allowed");
  });
});

describe("mails carry the brand", () => {
  const baseUrl = process.env.BASE_URL;
  afterEach(async () => {
    process.env.BASE_URL = baseUrl;
    await put(admin.token, { brand_color: original.brand_color });
    await call(logoRoute.DELETE, { method: "DELETE", token: admin.token });
  });

  async function accountMailHtml(): Promise<string> {
    const login = unique("branded_");
    const made = await call(userRoute.POST, { method: "POST", token: admin.token, query: { alert: 1 }, body: { login, password: "Bienvenue-123", email: `${login}@example.test` } });
    expect(made.status, made.text).toBe(201);
    const db = await getDb();
    const [mail] = await db.select().from(emails).where(eq(emails.to, `${login}@example.test`)).orderBy(desc(emails.id)).limit(1);
    return mail.html!;
  }

  it("puts the platform name on the accent colour and the logo at BASE_URL in the HTML part", async () => {
    process.env.BASE_URL = "https://files.example.test/";
    expect((await put(admin.token, { brand_color: "#0f766e" })).status).toBe(200);
    const logoUrl: string = (await upload(admin.token, form(await png(64, 64)))).body.logo_url;
    const html = await accountMailHtml();
    const name = (await stored()).platform_name;
    expect(html).toMatch(new RegExp(`<div style="background:#0f766e;color:#ffffff;[^"]*">.*${name}</span></div>`));
    expect(html).toContain(`<img src="https://files.example.test${logoUrl}" alt="" height="32"`);
  });

  it("has no logo without an absolute BASE_URL, and dark text on a light colour", async () => {
    process.env.BASE_URL = "/";
    await put(admin.token, { brand_color: "#ffe066" });
    await upload(admin.token, form(await png(64, 64)));
    const html = await accountMailHtml();
    expect(html).toContain('<div style="background:#ffe066;color:#15191f;');
    expect(html).not.toContain("<img");
  });
});
