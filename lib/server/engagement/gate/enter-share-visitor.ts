import "server-only";
import { and, asc, eq, lt } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { linkAccessTokens, linkVisitors, type ShareGate } from "@/db/schema";
import type { VisitorInput } from "@/lib/contracts/engagement";
import { hashToken, newToken } from "../../auth/tokens";
import type { Ctx } from "../../context";
import { AppError } from "../../errors";
import { ACCESS_TOKEN_TTL_MS } from "../../links/link-types";
import type { ShareVisit } from "../../links/resolve-link-visitor";
import { NO_GATE, isAddressAllowed } from "./share-gate";
import { checkVisitorCode, mailVisitorCode } from "./visitor-code";
import { queueNewVisitorMail } from "./new-visitor-mail";
import { countVisitorEntry, mayMailOwner } from "./visitor-limits";

export type VisitorAnswer = { status: 200; access_token: string } | { status: 202; code_sent: true };

/**
 * POST /share/key/(key)/visitor: who is reading a link (api.md, "Document engagement on link
 * shares"). The link is usable and unlocked (route()'s resolver). In order: the email the gate
 * asks for (400), its allow and deny lists (403 `link_denied`, deny wins), the agreement (400
 * `agreement_required`), the mailed code (202 when mailed, 403 when wrong, 429 past the limits);
 * then the visitor (one per link and address, a new one per call when anonymous; at most
 * VISITORS_PER_HOUR entries per address and link, 429 past them) and an access
 * token of the link naming them, which also unlocks a protected link since the request was.
 * Not in a transaction: a wrong code must be counted even though the request fails.
 */
export async function enterShareVisitor(ctx: Ctx, { share }: ShareVisit, input: VisitorInput, options: { base: string; language: string | null }): Promise<VisitorAnswer> {
  const gate: ShareGate = share.gate ?? NO_GATE;
  const email = gate.askEmail ? (input.email ?? null) : null;
  if (gate.askEmail && !email) throw new AppError("invalid_request", "This link asks for your email address", [{ path: "email", message: "Required" }]);
  if (email && !isAddressAllowed(gate, email)) throw new AppError("link_denied", "This address may not open this link");
  if (gate.agreement && !input.agreement_accepted) {
    throw new AppError("invalid_request", "This link asks you to accept its agreement first", [{ path: "agreement_accepted", code: "agreement_required", message: "Accept the agreement" }]);
  }
  // Counted before a code is mailed too: the link is no relay for mail to made-up addresses.
  await countVisitorEntry(ctx.db, share.id, ctx.request.ip);
  let verified = false;
  if (gate.verifyEmail && email) {
    if (!input.code) {
      await mailVisitorCode(ctx.db, share, email, options.language);
      return { status: 202, code_sent: true };
    }
    await checkVisitorCode(ctx.db, share, email, input.code, ctx.request.ip);
    verified = true;
  }

  const now = new Date();
  const accepted = gate.agreement ? { agreementAt: now, agreementIp: ctx.request.ip, agreementText: gate.agreement } : {};
  const { visitorId, isNew } = await saveVisitor(ctx.db, share.id, email, { ip: ctx.request.ip, lastAt: now, ...(verified ? { verifiedAt: now } : {}), ...accepted });
  const token = newToken();
  // The link's expired tokens go on the way, as passcheck does, so the table never grows without bound.
  await ctx.db.delete(linkAccessTokens).where(and(eq(linkAccessTokens.linkType, "share"), eq(linkAccessTokens.linkId, share.id), lt(linkAccessTokens.expiresAt, now)));
  await ctx.db.insert(linkAccessTokens).values({ tokenHash: hashToken(token), linkType: "share", linkId: share.id, visitorId, expiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_MS.share) });
  if (isNew && gate.notifyView && (await mayMailOwner(ctx.db, share.id))) await queueNewVisitorMail(ctx.db, share, { email, ip: ctx.request.ip }, options.base);
  return { status: 200, access_token: token };
}

type VisitorChanges = Partial<Pick<typeof linkVisitors.$inferInsert, "ip" | "lastAt" | "verifiedAt" | "agreementAt" | "agreementIp" | "agreementText">>;

/** A returning address keeps its visitor (first_at kept, the rest updated); an anonymous visitor is new at each call. */
async function saveVisitor(db: DbOrTx, shareId: number, email: string | null, changes: VisitorChanges): Promise<{ visitorId: number; isNew: boolean }> {
  if (email) {
    const [known] = await db
      .select({ id: linkVisitors.id })
      .from(linkVisitors)
      .where(and(eq(linkVisitors.shareId, shareId), eq(linkVisitors.email, email)))
      .orderBy(asc(linkVisitors.id))
      .limit(1);
    if (known) {
      await db.update(linkVisitors).set(changes).where(eq(linkVisitors.id, known.id));
      return { visitorId: known.id, isNew: false };
    }
  }
  const [row] = await db
    .insert(linkVisitors)
    .values({ shareId, email, ...changes })
    .returning({ id: linkVisitors.id });
  return { visitorId: row.id, isNew: true };
}
