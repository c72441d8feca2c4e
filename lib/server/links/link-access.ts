import "server-only";
import { and, eq, gt } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { linkAccessTokens } from "@/db/schema";
import { hashToken } from "../auth/tokens";
import type { LinkType } from "./link-types";

/**
 * The live access token `token` of this very link, with the visitor it was handed to (set for a
 * token of `POST /share/key/(key)/visitor`): one query, which resolve-link-visitor.ts runs per request.
 */
export async function findLinkAccess(db: DbOrTx, linkType: LinkType, linkId: number, token: string | null): Promise<{ visitorId: number | null } | null> {
  if (!token) return null;
  const [row] = await db
    .select({ visitorId: linkAccessTokens.visitorId })
    .from(linkAccessTokens)
    .where(and(eq(linkAccessTokens.tokenHash, hashToken(token)), eq(linkAccessTokens.linkType, linkType), eq(linkAccessTokens.linkId, linkId), gt(linkAccessTokens.expiresAt, new Date())))
    .limit(1);
  return row ?? null;
}

/** Whether `token` is a live access token of this very link. */
export async function hasLinkAccess(db: DbOrTx, linkType: LinkType, linkId: number, token: string | null): Promise<boolean> {
  return (await findLinkAccess(db, linkType, linkId, token)) !== null;
}
