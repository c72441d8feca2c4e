import "server-only";
import { randomInt } from "node:crypto";
import { and, asc, desc, eq, gt, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { linkCodes, type ShareRow } from "@/db/schema";
import { getPlatformConfig } from "../../config/platform-config";
import { AppError } from "../../errors";
import { guessUnderThrottle } from "../../auth/throttle";
import { hashLinkCode, linkThrottle } from "../../links/passcheck";
import { queueMail } from "../../mail/queue-mail";
import { mailTemplate, renderMail } from "../../mail/render-mail";

/** Mailed to a visitor whose address a link's gate verifies (`verify_email`). */
export const VISITOR_CODE_MAIL = mailTemplate("visitorCode");

const CODE_TTL_MS = 15 * 60_000;
/** Codes per link and address in an hour: enough for lost mails, too few to flood a mailbox. */
export const CODES_PER_HOUR = 5;
const HOUR_MS = 3600_000;

/** A code is bound to its link and to the address it was mailed to. */
const hashVisitorCode = (shareId: number, email: string, code: string) => hashLinkCode("share", shareId, `${email}:${code}`);

/**
 * Mails a fresh 6-digit code to `email` for this link (valid 15 minutes; it replaces the address's
 * unused one). At most CODES_PER_HOUR per link and address in an hour: 429 with Retry-After past them.
 */
export async function mailVisitorCode(db: DbOrTx, share: ShareRow, email: string, language: string | null): Promise<void> {
  const now = Date.now();
  const mine = and(eq(linkCodes.linkType, "share"), eq(linkCodes.linkId, share.id), eq(linkCodes.email, email));
  const recent = await db
    .select({ createdAt: linkCodes.createdAt })
    .from(linkCodes)
    .where(and(mine, gt(linkCodes.createdAt, new Date(now - HOUR_MS))))
    .orderBy(asc(linkCodes.createdAt))
    .limit(CODES_PER_HOUR);
  if (recent.length >= CODES_PER_HOUR) {
    const wait = Math.max(1, Math.ceil((recent[0].createdAt.getTime() + HOUR_MS - now) / 1000));
    throw new AppError("too_many_requests", `Too many codes were sent to this address; try again in ${wait} seconds`, undefined, { "Retry-After": String(wait) });
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  await db.update(linkCodes).set({ usedAt: new Date(now) }).where(and(mine, isNull(linkCodes.usedAt)));
  await db.insert(linkCodes).values({ linkType: "share", linkId: share.id, email, codeHash: hashVisitorCode(share.id, email, code), expiresAt: new Date(now + CODE_TTL_MS) });
  const { platform_name } = await getPlatformConfig(db);
  const mail = renderMail(VISITOR_CODE_MAIL, { code, link_name: share.name ?? share.key, platform: platform_name }, { language });
  await queueMail(db, { to: email, subject: mail.subject, text: mail.text, html: mail.html, sensitive: true });
}

/**
 * Checks the code mailed to `email` under the link's throttle, as passcheck checks its secrets
 * (a wrong code 403, repeated 429); a right code is used up. Not in a transaction on purpose: a
 * failure must be counted even though the request fails.
 */
export async function checkVisitorCode(db: DbOrTx, share: ShareRow, email: string, code: string, ip: string): Promise<void> {
  const found: { id: number | null } = { id: null };
  const { right } = await guessUnderThrottle(db, linkThrottle("share", share.id, ip), async () => {
    const [row] = await db
      .select({ id: linkCodes.id, codeHash: linkCodes.codeHash })
      .from(linkCodes)
      .where(and(eq(linkCodes.linkType, "share"), eq(linkCodes.linkId, share.id), eq(linkCodes.email, email), isNull(linkCodes.usedAt), gt(linkCodes.expiresAt, new Date())))
      .orderBy(desc(linkCodes.id))
      .limit(1);
    found.id = row && row.codeHash === hashVisitorCode(share.id, email, code) ? row.id : null;
    return found.id !== null;
  });
  if (!right || found.id === null) throw new AppError("forbidden", "Wrong or expired code");
  await db.update(linkCodes).set({ usedAt: new Date() }).where(eq(linkCodes.id, found.id));
}
