import "server-only";
import { and, eq, gt } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { linkAccessTokens } from "@/db/schema";
import { hashToken } from "../auth/tokens";
import type { LinkType } from "./link-types";

/** Whether `token` is a live access token of this very link (resolve-link-visitor.ts reads it from the request). */
export async function hasLinkAccess(db: DbOrTx, linkType: LinkType, linkId: number, token: string | null): Promise<boolean> {
  if (!token) return false;
  const [row] = await db
    .select({ linkId: linkAccessTokens.linkId })
    .from(linkAccessTokens)
    .where(and(eq(linkAccessTokens.tokenHash, hashToken(token)), eq(linkAccessTokens.linkType, linkType), eq(linkAccessTokens.linkId, linkId), gt(linkAccessTokens.expiresAt, new Date())))
    .limit(1);
  return Boolean(row);
}
