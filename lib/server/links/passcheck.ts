import "server-only";
import { and, desc, eq, gt, isNull, lt } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { linkAccessTokens, linkCodes } from "@/db/schema";
import { hashToken, newToken } from "../auth/tokens";
import { guessUnderThrottle, type ThrottleScope } from "../auth/throttle";
import { AppError } from "../errors";
import { verifyLinkPassword } from "./link-password";
import { ACCESS_TOKEN_TTL_MS, type LinkType, type ProtectedLink } from "./link-types";

export type LinkSecret = { password?: string | null; code?: string | null };

/**
 * The login throttle, keyed per link: failures count per (link, address), per address, and per
 * link from every address, with a lock that grows, so many addresses are no more guesses at a
 * link's password or code than one (issue 25, finding 6).
 */
export const linkThrottle = (linkType: LinkType, linkId: number, ip: string): ThrottleScope => ({ namespace: `link-${linkType}`, subject: String(linkId), ip, perSubject: true });

/** A code is stored as a hash bound to its link, so a code of one link is worthless on another. */
export const hashLinkCode = (linkType: LinkType, linkId: number, code: string) => hashToken(`${linkType}:${linkId}:${code}`);

/**
 * passcheck: checks the password and/or the SMS code the link asks for and returns an access
 * token (2 h for a share, 4 h for a drop link), stored hashed. Wrong answers are a 403, count as
 * failures of the link's throttle (past a few, 429 with Retry-After) and go to the link's activity
 * through `onRefused`, so its owner sees them. Not in a transaction on purpose: a failure must be
 * counted even though the request fails.
 */
export async function checkLinkSecret(db: DbOrTx, link: ProtectedLink, secret: LinkSecret, ip: string, onRefused?: () => Promise<void>): Promise<{ access_token: string }> {
  if (link.needsPassword && !secret.password) throw new AppError("invalid_request", "This link needs its password", [{ path: "password", message: "Required" }]);
  if (link.needsCode && !secret.code) throw new AppError("invalid_request", "This link needs the code sent by SMS", [{ path: "code", message: "Required" }]);

  const found: { codeId: number | null } = { codeId: null };
  const guess = async () => {
    const passwordOk = !link.needsPassword || (await verifyLinkPassword(link.passwordHash, secret.password!));
    found.codeId = link.needsCode ? await findCode(db, link, secret.code!) : null;
    return passwordOk && (!link.needsCode || found.codeId !== null);
  };
  const { right } = await guessUnderThrottle(db, linkThrottle(link.linkType, link.linkId, ip), guess);
  if (!right) {
    await onRefused?.();
    throw new AppError("forbidden", link.needsCode && !link.needsPassword ? "Wrong or expired code" : "Wrong password or code");
  }
  if (found.codeId !== null) await db.update(linkCodes).set({ usedAt: new Date() }).where(eq(linkCodes.id, found.codeId));

  const token = newToken();
  const now = new Date();
  // The link's expired tokens go on the way, so the table never grows without bound.
  await db.delete(linkAccessTokens).where(and(eq(linkAccessTokens.linkType, link.linkType), eq(linkAccessTokens.linkId, link.linkId), lt(linkAccessTokens.expiresAt, now)));
  await db.insert(linkAccessTokens).values({
    tokenHash: hashToken(token),
    linkType: link.linkType,
    linkId: link.linkId,
    expiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_MS[link.linkType]),
  });
  return { access_token: token };
}

/** The newest unused, unexpired SMS code of the link (not a visitor's mailed code), if `code` is it. */
async function findCode(db: DbOrTx, link: ProtectedLink, code: string): Promise<number | null> {
  const [row] = await db
    .select({ id: linkCodes.id, codeHash: linkCodes.codeHash })
    .from(linkCodes)
    .where(and(eq(linkCodes.linkType, link.linkType), eq(linkCodes.linkId, link.linkId), isNull(linkCodes.email), isNull(linkCodes.usedAt), gt(linkCodes.expiresAt, new Date())))
    .orderBy(desc(linkCodes.id))
    .limit(1);
  return row && row.codeHash === hashLinkCode(link.linkType, link.linkId, code.trim()) ? row.id : null;
}
