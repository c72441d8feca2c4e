import { crc32, deflateSync } from "node:zlib";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { signatureActors } from "@/db/schema";
import { completeSignatureRequest } from "@/lib/server/signatures/complete-signature-request";
import { unique } from "../../helpers/factories";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { expectHealthFast, healthWhile, warmHealth } from "../../helpers/health";
import { expectError } from "../../helpers/http";
import { api, draftWithSigners, ok, PNG_DATA_URL, publicSign, tokenFromMail } from "./signature-helpers";

// Issue 25, finding 12: a drawn signature of 512 KiB could hold 23000 x 23000 pixels, decoded by
// pdf-lib on the event loop at completion (18 s, the server frozen).
beforeAll(async () => {
  await openDatabase();
  await warmHealth();
}, OPEN_TIMEOUT);

const chunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
};

/** A real PNG of `width` x `height` black-and-white pixels, all white: a few kilobytes for any size. */
function blankPng(width: number, height: number, extra: Buffer[] = []): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc(height * (1 + Math.ceil(width / 8)), 0xff);
  for (let y = 0; y < height; y++) rows[y * (1 + Math.ceil(width / 8))] = 0; // filter: none
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", header), ...extra, chunk("IDAT", deflateSync(rows, { level: 9 })), chunk("IEND", Buffer.alloc(0))]);
}

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString("base64")}`;

async function signingLink() {
  const email = `${unique("drawn")}@example.test`;
  const { owner, request, actors } = await draftWithSigners({ signers: [email] });
  ok(await api.activate(owner, request.id));
  return { request, actorId: actors[0].id, token: await tokenFromMail(email) };
}

describe("a drawn signature is bounded in pixels", () => {
  it("a 23000 x 23000 PNG under 512 KiB is refused at once, before it is decoded, and health stays fast", async () => {
    const bomb = blankPng(23_000, 23_000);
    expect(bomb.length).toBeLessThan(512 * 1024);
    const { token } = await signingLink();
    const { result, times, elapsed } = await healthWhile(publicSign(token, { signature: { type: "drawn", image: dataUrl(bomb) } }));
    expectError(result, 400, "invalid_request");
    expect(result.body.details).toEqual([{ path: "signature.image", message: expect.stringContaining("23000 x 23000 pixels") }]);
    // Decoding it takes 18 s; the bound leaves a loaded CI machine its noise.
    expect(elapsed).toBeLessThan(6000);
    expectHealthFast({ times, elapsed });
  });

  it("takes up to 2000 x 1000 pixels, stored as sharp encoded it again (the signer's extra chunks gone); one pixel more is refused", async () => {
    const { token, actorId } = await signingLink();
    const wide = blankPng(2001, 1000);
    expectError(await publicSign(token, { signature: { type: "drawn", image: dataUrl(wide) } }), 400, "invalid_request");
    const note = chunk("tEXt", Buffer.from("Comment\0<script>alert(1)</script>", "latin1"));
    const largest = blankPng(2000, 1000, [note]);
    expect(ok(await publicSign(token, { signature: { type: "drawn", image: dataUrl(largest) } })).status).toBe("done");
    const [actor] = await (await getDb()).select().from(signatureActors).where(eq(signatureActors.id, actorId));
    const stored = Buffer.from(actor.signatureImage!.replace(/^data:image\/png;base64,/, ""), "base64");
    expect(stored.includes("alert(1)")).toBe(false);
    expect(await sharp(stored).metadata()).toMatchObject({ format: "png", width: 2000, height: 1000 });
  });

  it("an image stored before the limit is checked again at completion: the job fails at once instead of decoding it", async () => {
    const { request, token, actorId } = await signingLink();
    expect(ok(await publicSign(token, { signature: { type: "drawn", image: PNG_DATA_URL } })).status).toBe("done");
    const db = await getDb();
    await db.update(signatureActors).set({ signatureImage: dataUrl(blankPng(23_000, 23_000)) }).where(eq(signatureActors.id, actorId));
    const { result, times, elapsed } = await healthWhile(completeSignatureRequest(db, request.id).catch((error: unknown) => error));
    expect(result).toMatchObject({ code: "invalid_request", message: expect.stringContaining("23000 x 23000 pixels") });
    expect(elapsed).toBeLessThan(6000);
    expectHealthFast({ times, elapsed });
  });
});
