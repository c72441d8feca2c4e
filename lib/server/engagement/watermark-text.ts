import "server-only";
import { and, eq, gt } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { linkAccessTokens, linkVisitors, type ShareRow } from "@/db/schema";
import { hashToken } from "../auth/tokens";

/**
 * Who a watermark names (api.md, gate option `watermark`): the visitor's email when their access
 * token stands for a visitor who gave one, else the client's address. The line also carries the
 * time, UTC, to the minute: "ana@example.com · 2026-11-27 21:58 UTC".
 */
export const isWatermarked = (share: Pick<ShareRow, "gate">) => share.gate?.watermark === true;

/** The visitor a live access token of this share stands for, or null (no token, a password-only token, another link's). */
export async function findTokenVisitorId(db: DbOrTx, shareId: number, accessToken: string | null): Promise<number | null> {
  if (!accessToken) return null;
  const [row] = await db
    .select({ visitorId: linkAccessTokens.visitorId })
    .from(linkAccessTokens)
    .where(and(eq(linkAccessTokens.tokenHash, hashToken(accessToken)), eq(linkAccessTokens.linkType, "share"), eq(linkAccessTokens.linkId, shareId), gt(linkAccessTokens.expiresAt, new Date())))
    .limit(1);
  return row?.visitorId ?? null;
}

/** The email of a visitor of this share, or null (anonymous, or not this share's visitor). */
export async function findVisitorEmail(db: DbOrTx, shareId: number, visitorId: number | null): Promise<string | null> {
  if (visitorId === null) return null;
  const [row] = await db
    .select({ email: linkVisitors.email })
    .from(linkVisitors)
    .where(and(eq(linkVisitors.id, visitorId), eq(linkVisitors.shareId, shareId)))
    .limit(1);
  return row?.email ?? null;
}

/** The watermark's line: who, then when (UTC, to the minute). Control and bidi characters never reach it. */
export function watermarkLine(who: string | null, ip: string, now = new Date()): string {
  const when = `${now.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const name = cleanWatermarkText(who ?? "") || cleanWatermarkText(ip) || "anonymous";
  return `${name.slice(0, 200)} · ${when}`;
}

/** No control, format or bidirectional characters: what is drawn reads as it is stored. */
export function cleanWatermarkText(text: string): string {
  return text
    .normalize("NFC")
    .replace(/[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g, "")
    .trim();
}

/** The watermark of a page or download seen through an access token: its visitor's email, else the address. */
export async function watermarkFor(db: DbOrTx, share: Pick<ShareRow, "id">, visitor: { accessToken: string | null } | { visitorId: number | null }, ip: string): Promise<string> {
  const visitorId = "accessToken" in visitor ? await findTokenVisitorId(db, share.id, visitor.accessToken) : visitor.visitorId;
  return watermarkLine(await findVisitorEmail(db, share.id, visitorId), ip);
}

/**
 * A link's download token names the visitor it was issued to, for the watermark of the download
 * (file tokens have no column for it): the token ends with `.v<visitor id>`. Only the token's
 * hash is stored and looked up, so the ending cannot be changed without losing the token.
 */
export async function visitorTokenEnding(db: DbOrTx, shareId: number, accessToken: string | null): Promise<string> {
  const visitorId = await findTokenVisitorId(db, shareId, accessToken);
  return visitorId === null ? "" : `.v${visitorId}`;
}

/** The visitor a download token was issued to (visitorTokenEnding), or null. */
export function visitorIdOfToken(token: string): number | null {
  const match = /\.v(\d{1,10})$/.exec(token);
  return match ? Number(match[1]) : null;
}
