import "server-only";
import { randomInt, timingSafeEqual } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { signatureActors, type SignatureActorRow } from "@/db/schema";
import type { CodeSentResponse } from "@/lib/contracts/signatures";
import { assertNotThrottled, clearFailures, recordFailure, type ThrottleScope } from "../auth/throttle";
import { hashToken } from "../auth/tokens";
import { getPlatformConfig } from "../config/platform-config";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { sendSms } from "../sms/send-sms";
import { maskEmail, maskPhone } from "./read-signing";
import { needsCode, openSignerOrThrow } from "./signer-access";
import { actorRecipient, queueSignatureMail } from "./signature-mails";

const CODE_TTL_MS = 10 * 60_000;
/** One code a minute, as for link codes (links/sms.ts): enough for a lost message, too slow to flood a phone. */
const RESEND_AFTER_MS = 60_000;
export const MAX_CODE_TRIES = 5;

/** Bound to the actor, so a code of one actor is worthless for another. */
const hashCode = (actorId: number, code: string) => hashToken(`signature-actor:${actorId}:${code}`);

/**
 * POST /sign/(token)/sms: a 6-digit code for this actor, valid 10 minutes, 5 tries, by SMS when
 * the actor has a phone, else by mail. A new code replaces the previous one. 429 within a minute.
 */
export async function sendSigningCode(ctx: Ctx, token: string): Promise<CodeSentResponse> {
  const { request, actor } = await openSignerOrThrow(ctx.db, token);
  if (!needsCode(request, actor)) throw new AppError("invalid_request", "This signature needs no code");
  if (actor.codeSentAt && actor.codeSentAt.getTime() + RESEND_AFTER_MS > Date.now()) {
    const wait = Math.max(1, Math.ceil((actor.codeSentAt.getTime() + RESEND_AFTER_MS - Date.now()) / 1000));
    throw new AppError("too_many_requests", `A code was sent less than a minute ago; try again in ${wait} seconds`, undefined, { "Retry-After": String(wait) });
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const now = new Date();
  await ctx.db
    .update(signatureActors)
    .set({ codeHash: hashCode(actor.id, code), codeExpiresAt: new Date(now.getTime() + CODE_TTL_MS), codeSentAt: now, codeTries: 0 })
    .where(eq(signatureActors.id, actor.id));
  if (actor.phone) {
    const { platform_name } = await getPlatformConfig(ctx.db);
    await sendSms(ctx.db, actor.phone, `${platform_name}: your code to sign "${request.name.slice(0, 60)}" is ${code}`);
    return { channel: "sms", destination: maskPhone(actor.phone) };
  }
  await queueSignatureMail(ctx.db, "code", actorRecipient(actor), request, { code }, { sensitive: true });
  return { channel: "email", destination: maskEmail(actor.email) };
}

/**
 * Checks a code given with a signature; a wrong one counts a try (committed even though the
 * request fails), and after five the code is dead: a new one must be sent.
 */
export async function checkSigningCode(db: DbOrTx, actor: SignatureActorRow, code: string | undefined, ip: string): Promise<void> {
  // The login throttle as well, keyed per actor and address, as for link codes (links/passcheck.ts).
  const scope: ThrottleScope = { namespace: "signing-code", subject: String(actor.id), ip };
  await assertNotThrottled(db, scope);
  if (!code) throw new AppError("invalid_request", "This signature needs the one-time code: send it with POST /sign/(token)/sms, then give sms_code", [{ path: "sms_code", message: "Required" }]);
  if (!actor.codeHash || !actor.codeExpiresAt || actor.codeExpiresAt.getTime() <= Date.now()) {
    throw new AppError("forbidden", "No valid code: ask for a new one");
  }
  if (actor.codeTries >= MAX_CODE_TRIES) throw new AppError("too_many_requests", "Too many wrong codes: ask for a new one");
  const expected = Buffer.from(actor.codeHash);
  const given = Buffer.from(hashCode(actor.id, code));
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    await db.update(signatureActors).set({ codeTries: sql`${signatureActors.codeTries} + 1` }).where(eq(signatureActors.id, actor.id));
    await recordFailure(db, scope);
    throw new AppError("forbidden", "Wrong code");
  }
  await clearFailures(db, scope);
}
