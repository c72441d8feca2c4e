import "server-only";
import { inArray } from "drizzle-orm";
import { files, shareRoots, shares } from "@/db/schema";
import type { CreateShareInput, ShareResponse } from "@/lib/contracts/shares";
import { writeLog } from "../audit/write-log";
import { getPlatformConfig } from "../config/platform-config";
import { logWho, type AuthedCtx } from "../context";
import { AppError } from "../errors";
import { FILE_EVENT, FOLDER_EVENT, recordEvent } from "../events/record-event";
import { mergeGate } from "../engagement/gate/share-gate";
import { newLinkKey } from "../links/link-key";
import { presentShare } from "./present-share";
import { resolveRootsForShare } from "./share-items";
import { applyProtection } from "./share-protection";

/**
 * POST /share: a link share on files and folders. Needs the platform feature `direct_link` and
 * the share right on every root's folder. Each root's timeline records the share (file event 2,
 * folder event 4).
 */
export async function createShare(ctx: AuthedCtx, input: CreateShareInput, base: string): Promise<ShareResponse> {
  const user = ctx.actor.user;
  if (!(await getPlatformConfig(ctx.db)).features.direct_link) throw new AppError("forbidden", "Link sharing is disabled on this platform");
  if (input.expiration_date && input.expiration_date <= new Date()) {
    throw new AppError("invalid_request", "The expiration date is in the past", [{ path: "expiration_date", message: "Must be in the future" }]);
  }
  const protection = await applyProtection({ flags: 0, passwordHash: null, phone: null }, input);
  return ctx.db.transaction(async (tx) => {
    const roots = await resolveRootsForShare(tx, user, input.roots);
    const [share] = await tx
      .insert(shares)
      .values({
        key: newLinkKey(),
        flags: protection.flags,
        name: input.name || null,
        expirationDate: input.expiration_date ?? null,
        ownerId: user.id,
        passwordHash: protection.passwordHash,
        phone: protection.phone,
        gate: mergeGate(null, input),
      })
      .returning();
    await tx.insert(shareRoots).values(roots.map((r) => ({ shareId: share.id, entityType: r.entityType, objectId: r.objectId })));
    // A file's timeline lists its events by version: the share belongs to the version current now
    // (without one, type 2 never reached the timeline and total_dlinks stayed 0).
    const fileIds = roots.filter((r) => r.entityType === 1).map((r) => r.objectId);
    const current = new Map(
      fileIds.length ? (await tx.select({ id: files.id, versionId: files.currentVersionId }).from(files).where(inArray(files.id, fileIds))).map((f) => [f.id, f.versionId]) : [],
    );
    for (const root of roots) {
      await recordEvent(tx, ctx.request, {
        targetType: root.entityType === 0 ? "folder" : "file",
        targetId: root.objectId,
        versionId: root.entityType === 1 ? (current.get(root.objectId) ?? undefined) : undefined,
        type: root.entityType === 0 ? FOLDER_EVENT.sharedByLink : FILE_EVENT.linkShare,
        actorId: user.id,
        data: { share_id: share.id },
      });
    }
    await writeLog(tx, logWho(ctx, tx), { type: "ADMLLOG_INSERT", message: `Link share created (${roots.length} item(s))`, objectType: "share", objectId: share.id, object: share.name ?? share.key });
    return presentShare(tx, share, base);
  });
}
