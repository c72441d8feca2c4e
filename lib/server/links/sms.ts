import "server-only";
import { randomInt } from "node:crypto";
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { linkCodes } from "@/db/schema";
import { AppError } from "../errors";
import { sendSms } from "../sms/send-sms";
import type { LinkType } from "./link-types";
import { hashLinkCode } from "./passcheck";

const CODE_TTL_MS = 10 * 60_000;
/** One code per link per minute: enough for a lost message, too slow to flood a phone. */
const RESEND_AFTER_MS = 60_000;

/**
 * Sends a fresh 6-digit code to the link's phone (valid 10 minutes; a new code replaces the
 * previous one, as passcheck only accepts the newest). The number is never returned.
 */
export async function sendLinkCode(db: DbOrTx, link: { linkType: LinkType; linkId: number; phone: string }, message: (code: string) => string): Promise<void> {
  const [last] = await db
    .select({ createdAt: linkCodes.createdAt })
    .from(linkCodes)
    .where(and(eq(linkCodes.linkType, link.linkType), eq(linkCodes.linkId, link.linkId), isNull(linkCodes.email), gt(linkCodes.createdAt, new Date(Date.now() - RESEND_AFTER_MS))))
    .orderBy(desc(linkCodes.id))
    .limit(1);
  if (last) {
    const wait = Math.max(1, Math.ceil((last.createdAt.getTime() + RESEND_AFTER_MS - Date.now()) / 1000));
    throw new AppError("too_many_requests", `A code was sent less than a minute ago; try again in ${wait} seconds`, undefined, { "Retry-After": String(wait) });
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  await db.insert(linkCodes).values({
    linkType: link.linkType,
    linkId: link.linkId,
    codeHash: hashLinkCode(link.linkType, link.linkId, code),
    expiresAt: new Date(Date.now() + CODE_TTL_MS),
  });
  await sendSms(db, link.phone, message(code));
}
