import "server-only";
import sharp from "sharp";
import { MAX_SIGNATURE_HEIGHT, MAX_SIGNATURE_PNG_BYTES, MAX_SIGNATURE_WIDTH } from "@/lib/contracts/signatures";
import { AppError } from "../errors";

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MAX_PIXELS = MAX_SIGNATURE_WIDTH * MAX_SIGNATURE_HEIGHT;

const bad = (message: string) => new AppError("invalid_request", `Invalid request: signature.image: ${message}`, [{ path: "signature.image", message }]);

/**
 * A drawn signature as it is stored and stamped: a PNG of at most 2000 x 1000 pixels, decoded
 * and encoded again by sharp (on libuv's threads, never the event loop). Its header is read
 * first: 512 KiB of PNG can declare 23000 x 23000 pixels (issue 25, finding 12), and such an
 * image is refused before a pixel of it is decoded. What comes out is sharp's own PNG, without
 * the chunks (text, profiles, trailing bytes) the signer's file carried.
 */
export async function normaliseDrawnSignature(png: Buffer): Promise<Buffer> {
  if (png.length > MAX_SIGNATURE_PNG_BYTES) throw bad(`The image is larger than ${MAX_SIGNATURE_PNG_BYTES / 1024} KiB`);
  if (png.length < 16 || !png.subarray(0, 8).equals(PNG_MAGIC)) throw bad("Not a PNG image");
  // The header alone (no pixel limit, which would refuse without saying the size); the pixels next, within it.
  const meta = await sharp(png, { limitInputPixels: false })
    .metadata()
    .catch(() => null);
  if (!meta || meta.format !== "png" || !meta.width || !meta.height) throw bad("Not a readable PNG image");
  if (meta.width > MAX_SIGNATURE_WIDTH || meta.height > MAX_SIGNATURE_HEIGHT) {
    throw bad(`The image is ${meta.width} x ${meta.height} pixels; a drawn signature is at most ${MAX_SIGNATURE_WIDTH} x ${MAX_SIGNATURE_HEIGHT}`);
  }
  return sharp(png, { limitInputPixels: MAX_PIXELS, failOn: "error" })
    .png({ compressionLevel: 9 })
    .toBuffer()
    .catch(() => {
      throw bad("Not a readable PNG image");
    });
}

/** The PNG of a stored data URL (`data:image/png;base64,...`). */
export const pngOfDataUrl = (dataUrl: string) => Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ""), "base64");

/** A signer's data URL checked, normalised and given back as the data URL to store. */
export async function readDrawnSignature(image: string | undefined): Promise<string> {
  const match = /^data:image\/png;base64,([A-Za-z0-9+/]+={0,2})$/.exec(image ?? "");
  if (!match) throw bad("Expected a PNG data URL (data:image/png;base64,...)");
  const png = await normaliseDrawnSignature(Buffer.from(match[1], "base64"));
  return `data:image/png;base64,${png.toString("base64")}`;
}
