import "server-only";
import { and, eq, isNotNull } from "drizzle-orm";
import { linkAccessTokens, shareRoots, shares } from "@/db/schema";
import type { ShareResponse, UpdateShareInput } from "@/lib/contracts/shares";
import { writeLog } from "../audit/write-log";
import { logWho, type AuthedCtx } from "../context";
import { hasGateInput, isStricter, mergeGate } from "../engagement/gate/share-gate";
import { getOwnShareOrThrow } from "./load-share";
import { presentShare } from "./present-share";
import { resolveRootsForShare } from "./share-items";
import { applyProtection } from "./share-protection";

/**
 * PUT /share/(id): changes flags, expiration (null: never; a past date expires it now), name,
 * password, phone, roots (checked like a creation) or gate (merged with the stored one). New
 * secrets revoke the access tokens given under the old ones; a stricter gate, its visitors' tokens,
 * so they pass the new gate.
 */
export async function updateShare(ctx: AuthedCtx, shareId: number, input: UpdateShareInput, base: string): Promise<ShareResponse> {
  return ctx.db.transaction(async (tx) => {
    const share = await getOwnShareOrThrow(tx, ctx.actor.user, shareId, { forUpdate: true });
    const protection = await applyProtection(share, input);
    const changes: Partial<typeof shares.$inferInsert> = { flags: protection.flags, passwordHash: protection.passwordHash, phone: protection.phone };
    if (input.name !== undefined) changes.name = input.name || null;
    if (input.expiration_date !== undefined) changes.expirationDate = input.expiration_date;
    const gate = hasGateInput(input) ? mergeGate(share.gate, input) : share.gate;
    if (hasGateInput(input)) changes.gate = gate;
    if (input.roots) {
      const roots = await resolveRootsForShare(tx, ctx.actor.user, input.roots);
      await tx.delete(shareRoots).where(eq(shareRoots.shareId, share.id));
      await tx.insert(shareRoots).values(roots.map((r) => ({ shareId: share.id, entityType: r.entityType, objectId: r.objectId })));
    }
    const [updated] = await tx.update(shares).set(changes).where(eq(shares.id, share.id)).returning();
    if (protection.secretsChanged) {
      await tx.delete(linkAccessTokens).where(and(eq(linkAccessTokens.linkType, "share"), eq(linkAccessTokens.linkId, share.id)));
    } else if (isStricter(share.gate, gate)) {
      await tx.delete(linkAccessTokens).where(and(eq(linkAccessTokens.linkType, "share"), eq(linkAccessTokens.linkId, share.id), isNotNull(linkAccessTokens.visitorId)));
    }
    await writeLog(tx, logWho(ctx, tx), { type: "ADMLLOG_UPDATE", message: "Link share updated", objectType: "share", objectId: share.id, object: updated.name ?? updated.key });
    return presentShare(tx, updated, base);
  });
}
