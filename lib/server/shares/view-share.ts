import "server-only";
import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { linkVisitors } from "@/db/schema";
import type { PublicGateJson } from "@/lib/contracts/engagement";
import type { publicShareResponse } from "@/lib/contracts/shares";
import type { Ctx } from "../context";
import { needsVisitor } from "../engagement/gate/share-gate";
import { iso } from "../present/envelope";
import { loadOwnerNames } from "../users/owner-names";
import type { ShareVisit } from "../links/resolve-link-visitor";
import { recordShareAccess } from "./record-access";
import { needsCode, needsPassword, shareCans } from "./share-flags";
import { loadRootItems, presentShareItems } from "./share-items";

/**
 * GET /share/key/(key) (no account): what the visitor's page shows. A protected link answers
 * what it needs (password, code) and nothing of its content until an access token unlocks it;
 * a gate asking for an email or an agreement, likewise until a visitor's token passes it (api.md,
 * "Document engagement on link shares": what the gate asks, never its allow and deny lists). An
 * unlocked view that passed the gate counts as a visit.
 */
export async function viewShare(ctx: Ctx, { share, unlocked, recipientId, visitorId }: ShareVisit): Promise<z.infer<typeof publicShareResponse>> {
  const owners = await loadOwnerNames(ctx.db, [share.ownerId]);
  const gate = await publicGate(ctx, share, visitorId);
  const view = {
    key: share.key,
    name: unlocked ? share.name : null,
    flags: share.flags,
    expiration_date: iso(share.expirationDate),
    owner: owners.get(share.ownerId) ?? "",
    needs_password: needsPassword(share),
    needs_code: needsCode(share),
    unlocked,
    ...shareCans(share.flags),
    gate,
  };
  if (!unlocked || (needsVisitor(share.gate) && !gate.visitor)) return view;
  await recordShareAccess(ctx.db, share, ctx.request, { kind: "visit", recipientId });
  return { ...view, roots: await presentShareItems(ctx.db, share, await loadRootItems(ctx.db, share), true) };
}

async function publicGate(ctx: Ctx, share: ShareVisit["share"], visitorId: number | null): Promise<PublicGateJson> {
  const [visitor] = visitorId
    ? await ctx.db
        .select({ email: linkVisitors.email })
        .from(linkVisitors)
        .where(and(eq(linkVisitors.id, visitorId), eq(linkVisitors.shareId, share.id)))
        .limit(1)
    : [];
  return {
    ask_email: Boolean(share.gate?.askEmail),
    verify_email: Boolean(share.gate?.verifyEmail),
    agreement: share.gate?.agreement ?? null,
    watermark: Boolean(share.gate?.watermark),
    visitor: visitor ? { email: visitor.email } : null,
  };
}
