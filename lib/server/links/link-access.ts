import "server-only";
import { and, eq, gt } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { linkAccessTokens } from "@/db/schema";
import { hashToken } from "../auth/tokens";
import { AppError } from "../errors";
import { isProtected, type LinkType, type ProtectedLink } from "./link-types";

/** The access token a visitor presents: `Authorization: Bearer` or the `access_token` query parameter (api.md). */
export function linkAccessToken(req: Request): string | null {
  const match = req.headers.get("authorization")?.match(/^Bearer\s+(\S+)\s*$/i);
  if (match) return match[1];
  return new URL(req.url).searchParams.get("access_token") || null;
}

/** Whether `token` is a live access token of this very link. */
export async function hasLinkAccess(db: DbOrTx, linkType: LinkType, linkId: number, token: string | null): Promise<boolean> {
  if (!token) return false;
  const [row] = await db
    .select({ linkId: linkAccessTokens.linkId })
    .from(linkAccessTokens)
    .where(and(eq(linkAccessTokens.tokenHash, hashToken(token)), eq(linkAccessTokens.linkType, linkType), eq(linkAccessTokens.linkId, linkId), gt(linkAccessTokens.expiresAt, new Date())))
    .limit(1);
  return Boolean(row);
}

/** Whether the request may see the link's content: unprotected, or with a live access token. */
export async function isUnlocked(db: DbOrTx, link: ProtectedLink, req: Request): Promise<boolean> {
  return !isProtected(link) || hasLinkAccess(db, link.linkType, link.linkId, linkAccessToken(req));
}

/** 401 unless the request may see the link's content. */
export async function assertLinkAccess(db: DbOrTx, link: ProtectedLink, req: Request): Promise<void> {
  if (!(await isUnlocked(db, link, req))) {
    throw new AppError("unauthorized", "This link is protected: send the access_token that passcheck returns");
  }
}
