import { eq } from "drizzle-orm";
import { expect } from "vitest";
import * as pageRoute from "@/app/api/share/key/[key]/file/[fileId]/page/[page]/route";
import * as pagesRoute from "@/app/api/share/key/[key]/file/[fileId]/pages/route";
import { getDb } from "@/db";
import { linkAccessTokens, linkVisitors, shares, type ShareGate } from "@/db/schema";
import { hashToken, newToken } from "@/lib/server/auth/tokens";
import { call } from "../../helpers/http";
import { callBytes } from "../previews/fixtures";
import { bearer } from "../shares/share-helpers";

/** The gate as the other branch stores it; only `watermark` matters to the page images. */
export const gate = (watermark: boolean): ShareGate => ({ askEmail: false, verifyEmail: false, allow: [], deny: [], agreement: null, watermark, notifyView: false });

/** Sets a share's gate straight in the database (the gate's own API is another branch's). */
export async function setGate(shareId: number, value: ShareGate | null) {
  await (await getDb()).update(shares).set({ gate: value }).where(eq(shares.id, shareId));
}

/** A visitor of the share (a link_visitors row) and an access token standing for them, as `POST …/visitor` makes. */
export async function visitorToken(shareId: number, email: string | null): Promise<{ token: string; visitorId: number }> {
  const db = await getDb();
  const [visitor] = await db.insert(linkVisitors).values({ shareId, email }).returning();
  const token = newToken();
  await db.insert(linkAccessTokens).values({ tokenHash: hashToken(token), linkType: "share", linkId: shareId, visitorId: visitor.id, expiresAt: new Date(Date.now() + 3_600_000) });
  return { token, visitorId: visitor.id };
}

export const pagesOf = (key: string, fileId: number | string, access?: string) => call(pagesRoute.GET, { params: { key, fileId: String(fileId) }, headers: bearer(access) });

export const pageOf = (key: string, fileId: number | string, page: number | string, options: { access?: string; w?: string } = {}) =>
  callBytes(pageRoute.GET, { params: { key, fileId: String(fileId), page: String(page) }, headers: bearer(options.access), query: options.w ? { w: options.w } : {} });

/** A page's bytes are a PNG (PDF pages) or a WebP (images). */
export function expectImage(bytes: Buffer, type: "png" | "webp") {
  if (type === "png") expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  else expect(bytes.subarray(0, 4).toString() + bytes.subarray(8, 12).toString()).toBe("RIFFWEBP");
}
