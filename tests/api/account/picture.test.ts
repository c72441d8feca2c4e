import { readdir } from "node:fs/promises";
import { crc32 } from "node:zlib";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import * as accountPictureRoute from "@/app/api/account/picture/route";
import * as userPictureRoute from "@/app/api/user/[userId]/picture/route";
import { getDb } from "@/db";
import { logs } from "@/db/schema";
import { getBlobStore } from "@/lib/storage";
import { createAdmin, createTestGroup, createTestUser, reloadUser } from "../../helpers/factories";
import { call, expectError, type CallOptions } from "../../helpers/http";
import { callViaNode } from "../../helpers/node-call";
import { expectAuthRequired } from "../../helpers/security";
import { multipartStream } from "./multipart-body";

// Opening the database (a fresh PGlite takes seconds) belongs to setup, not to the first test.
beforeAll(async () => {
  await getDb();
});

const RED = { r: 255, g: 0, b: 0 };
const BLUE = { r: 0, g: 0, b: 255 };

/** An 800x400 JPEG, left half red, right half blue, with an EXIF orientation. */
async function halvesJpeg(orientation = 1): Promise<Buffer> {
  const blue = await sharp({ create: { width: 400, height: 400, channels: 3, background: BLUE } }).png().toBuffer();
  return sharp({ create: { width: 800, height: 400, channels: 3, background: RED } })
    .composite([{ input: blue, left: 400, top: 0 }])
    .jpeg()
    .withMetadata({ orientation })
    .toBuffer();
}

const png = (width = 64, height = 48) => sharp({ create: { width, height, channels: 3, background: { r: 10, g: 200, b: 30 } } }).png().toBuffer();

/** A tiny PNG whose header claims 30000x30000 pixels: a decompression bomb. */
async function bombPng(): Promise<Buffer> {
  const file = Buffer.from(await png(1, 1));
  // IHDR data starts at byte 16 (8 signature + 4 length + 4 type); its CRC follows 13 bytes of data.
  file.writeUInt32BE(30_000, 16);
  file.writeUInt32BE(30_000, 20);
  file.writeUInt32BE(crc32(file.subarray(12, 29)), 29);
  return file;
}

function form(content: Uint8Array | string, part = "targetFile", type = "image/png"): FormData {
  const body = new FormData();
  body.append("comment", "hello");
  body.append(part, new Blob([typeof content === "string" ? content : new Uint8Array(content)], { type }), "picture.bin");
  return body;
}

async function upload(handler: typeof accountPictureRoute.POST, token: string, form: FormData, options: CallOptions = {}) {
  const { body, contentType } = await multipartStream(form);
  return call(handler, { method: "POST", token, rawBody: body, headers: { "content-type": contentType }, ...options });
}

async function pixel(image: Buffer, x: number, y: number) {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return { r: data[at], g: data[at + 1], b: data[at + 2] };
}

/** Reads the picture through the route as bytes. */
async function readPicture(handler: typeof accountPictureRoute.GET, options: CallOptions) {
  const res = await handler(
    new Request(`http://coffre.test/api/picture`, { headers: { authorization: `Bearer ${options.token}`, ...options.headers } }),
    { params: Promise.resolve(options.params ?? {}) },
  );
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe("account picture", () => {
  it("stores an upright 512x512 WebP, answers OK, and serves it with an ETag", async () => {
    const user = await createTestUser();
    const res = await upload(accountPictureRoute.POST, user.token, form(await halvesJpeg(6), "targetFile", "image/jpeg"));
    expect(res.status, res.text).toBe(200);
    expect(res.text).toBe("OK");
    const stored = await reloadUser(user.id);
    expect(stored.pictureBlobId).toMatch(/^[0-9a-f-]{36}$/);

    const picture = await readPicture(accountPictureRoute.GET, { token: user.token });
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toBe("image/webp");
    expect(picture.headers.get("etag")).toBe(`"${stored.pictureBlobId}"`);
    const meta = await sharp(picture.bytes).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 512, height: 512 });
    expect(meta.exif).toBeUndefined();
    // Orientation 6 turns the picture a quarter clockwise: the red left half ends on top.
    const top = await pixel(picture.bytes, 400, 50);
    const bottom = await pixel(picture.bytes, 100, 460);
    expect(top.r).toBeGreaterThan(200);
    expect(top.b).toBeLessThan(60);
    expect(bottom.b).toBeGreaterThan(200);
    expect(bottom.r).toBeLessThan(60);

    const again = await readPicture(accountPictureRoute.GET, { token: user.token, headers: { "if-none-match": `"${stored.pictureBlobId}"` } });
    expect(again.status).toBe(304);
    const db = await getDb();
    const entries = await db.select().from(logs).where(and(eq(logs.objectId, String(user.id)), eq(logs.type, "ADMLLOG_UPDATE")));
    expect(entries[0].message).toContain("picture");
  });

  it("replaces the previous picture and deletes its blob", async () => {
    const user = await createTestUser();
    await upload(accountPictureRoute.POST, user.token, form(await png()));
    const first = (await reloadUser(user.id)).pictureBlobId!;
    expect((await upload(accountPictureRoute.POST, user.token, form(await png(100, 100)))).status).toBe(200);
    const second = (await reloadUser(user.id)).pictureBlobId!;
    expect(second).not.toBe(first);
    expect(await getBlobStore().size(first)).toBeNull();
    expect(await getBlobStore().size(second)).toBeGreaterThan(0);
  });

  it("refuses what is not an image, a decompression bomb, a missing part and a non-multipart body", async () => {
    const user = await createTestUser();
    const text = await upload(accountPictureRoute.POST, user.token, form("just some text", "targetFile", "text/plain"));
    expectError(text, 400, "invalid_request");
    expect(text.body.error).toMatch(/not an image/);
    expectError(await upload(accountPictureRoute.POST, user.token, form(await bombPng())), 400, "invalid_request");
    const missing = await upload(accountPictureRoute.POST, user.token, form(await png(), "otherPart"));
    expectError(missing, 400, "invalid_request");
    expect(missing.body.error).toContain("targetFile");
    expectError(await call(accountPictureRoute.POST, { method: "POST", token: user.token, body: { targetFile: "x" } }), 415);
    expect((await reloadUser(user.id)).pictureBlobId).toBeNull();
  });

  it("answers 400 to a body that ends inside the file part, over HTTP as server.ts serves it (the fuzzing found it never answered)", async () => {
    const user = await createTestUser();
    // One small chunk: the body's end reaches the parser in the same tick as the file part's start.
    const req = new Request("http://coffre.test/api/account/picture", {
      method: "POST",
      headers: { authorization: `Bearer ${user.token}`, "content-type": "multipart/form-data; boundary=b" },
      body: '--b\r\nContent-Disposition: form-data; name="targetFile"; filename="a"\r\n\r\nabc',
    });
    const res = await callViaNode(accountPictureRoute.POST, req, {}, false);
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe("invalid_request");
    expect((await reloadUser(user.id)).pictureBlobId).toBeNull();
  }, 20_000);

  it("refuses a file over 16 MB with 413 while streaming", async () => {
    const user = await createTestUser();
    const big = new Uint8Array(16 * 1024 * 1024 + 1);
    big.set(await png(), 0);
    const res = await upload(accountPictureRoute.POST, user.token, form(big));
    expectError(res, 413, "payload_too_large");
    expect(res.body.error).toContain("16 MB");
    expect((await reloadUser(user.id)).pictureBlobId).toBeNull();
    // The aborted write left no partial file behind.
    const leftovers = await readdir(getBlobStore().tempDir).catch(() => []);
    expect(leftovers.filter((f) => f.endsWith(".part"))).toEqual([]);
  });

  it("deletes the picture (204, then 404 on read; deleting again is 204)", async () => {
    const user = await createTestUser();
    expectError(await call(accountPictureRoute.GET, { token: user.token }), 404, "not_found");
    await upload(accountPictureRoute.POST, user.token, form(await png()));
    const blob = (await reloadUser(user.id)).pictureBlobId!;
    expect((await call(accountPictureRoute.DELETE, { method: "DELETE", token: user.token })).status).toBe(204);
    expect((await reloadUser(user.id)).pictureBlobId).toBeNull();
    expect(await getBlobStore().size(blob)).toBeNull();
    expectError(await call(accountPictureRoute.GET, { token: user.token }), 404, "not_found");
    expect((await call(accountPictureRoute.DELETE, { method: "DELETE", token: user.token })).status).toBe(204);
  });

  it("is refused to a user whose account details are locked", async () => {
    const user = await createTestUser({ canEditOptions: false });
    expectError(await upload(accountPictureRoute.POST, user.token, form(await png())), 403, "forbidden");
  });

  it("needs a valid token", async () => {
    await expectAuthRequired(accountPictureRoute.GET, {});
    await expectAuthRequired(accountPictureRoute.POST, { method: "POST", rawBody: form("x") });
    await expectAuthRequired(accountPictureRoute.DELETE, { method: "DELETE" });
  });
});

describe("user picture", () => {
  const at = (userId: number) => ({ params: { userId: String(userId) } });

  it("is readable by any signed-in user, and 404 for unknown users", async () => {
    const owner = await createTestUser();
    const reader = await createTestUser({ role: 1 });
    await upload(accountPictureRoute.POST, owner.token, form(await png()));
    const res = await readPicture(userPictureRoute.GET, { token: reader.token, ...at(owner.id) });
    expect(res.status).toBe(200);
    expect((await sharp(res.bytes).metadata()).format).toBe("webp");
    expectError(await call(userPictureRoute.GET, { token: reader.token, ...at(2_000_000_000) }), 404, "not_found");
  });

  it("is changed by administrators and by managers of the user's groups", async () => {
    const target = await createTestUser();
    const admin = await createAdmin();
    const manager = await createTestUser({ role: 4 });
    await createTestGroup({ members: [target.id], managers: [manager.id] });
    expect((await upload(userPictureRoute.POST, admin.token, form(await png()), at(target.id))).status).toBe(200);
    const byAdmin = (await reloadUser(target.id)).pictureBlobId;
    expect(byAdmin).not.toBeNull();
    expect((await upload(userPictureRoute.POST, manager.token, form(await png(30, 30)), at(target.id))).status).toBe(200);
    expect((await reloadUser(target.id)).pictureBlobId).not.toBe(byAdmin);
    expect((await call(userPictureRoute.DELETE, { method: "DELETE", token: manager.token, ...at(target.id) })).status).toBe(204);
    expect((await reloadUser(target.id)).pictureBlobId).toBeNull();
  });

  it("refuses other users, managers of other groups, and managers on administrators", async () => {
    const target = await createTestUser();
    await upload(accountPictureRoute.POST, target.token, form(await png()));
    const before = (await reloadUser(target.id)).pictureBlobId;
    const stranger = await createTestUser();
    const otherManager = await createTestUser({ role: 4 });
    await createTestGroup({ managers: [otherManager.id] });
    for (const token of [stranger.token, otherManager.token]) {
      expectError(await upload(userPictureRoute.POST, token, form(await png()), at(target.id)), 403, "forbidden");
      expectError(await call(userPictureRoute.DELETE, { method: "DELETE", token, ...at(target.id) }), 403, "forbidden");
    }
    const admin = await createAdmin();
    const manager = await createTestUser({ role: 4 });
    await createTestGroup({ members: [admin.id], managers: [manager.id] });
    expectError(await upload(userPictureRoute.POST, manager.token, form(await png()), at(admin.id)), 403, "forbidden");
    expect((await reloadUser(target.id)).pictureBlobId).toBe(before);
  });

  it("needs a valid token and a numeric id", async () => {
    const someone = await createTestUser();
    await expectAuthRequired(userPictureRoute.GET, at(someone.id));
    await expectAuthRequired(userPictureRoute.POST, { method: "POST", rawBody: form("x"), ...at(someone.id) });
    await expectAuthRequired(userPictureRoute.DELETE, { method: "DELETE", ...at(someone.id) });
    expectError(await call(userPictureRoute.GET, { token: someone.token, params: { userId: "abc" } }), 400, "invalid_request");
  });
});
