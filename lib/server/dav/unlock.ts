import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { and, eq } from "drizzle-orm";
import { davLocks, fileLocks, files } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { AppError, forbidden } from "../errors";
import { unlockFile } from "../locks/unlock-file";
import { resolveDavPath } from "./dav-path";
import { sendEmpty } from "./dav-response";
import { locksOfTarget, type DavLock } from "./dav-locks";

/**
 * UNLOCK (RFC 4918, 9.11): removes the lock named by Lock-Token, which must cover the target
 * (409 lock-token-matches-request-uri otherwise) and be the caller's (403). The file lock it held
 * goes once no other WebDAV lock of the caller holds that file.
 */
export async function unlock(ctx: AuthedCtx, req: IncomingMessage, res: ServerResponse, segments: string[]): Promise<void> {
  const header = req.headers["lock-token"];
  const token = typeof header === "string" ? /^\s*<([^>]+)>\s*$/.exec(header)?.[1] : undefined;
  if (!token) throw new AppError("invalid_request", "UNLOCK needs a Lock-Token header: <token>");
  const target = await resolveDavPath(ctx, segments);
  const found = (await locksOfTarget(ctx.db, target)).find((l) => l.token === token);
  if (!found) throw new AppError("conflict", "No lock with this token covers the resource", { dav: "lock-token-matches-request-uri" });
  if (found.userId !== ctx.actor.user.id && ctx.actor.user.role !== 3) throw forbidden("Only the holder of a lock may remove it");
  await releaseLocks(ctx, [found]);
  sendEmpty(res, 204);
}

/** Removes WebDAV locks and, for a file, our lock once no other WebDAV lock of its user holds it. */
export async function releaseLocks(ctx: AuthedCtx, locks: DavLock[]): Promise<void> {
  for (const lock of locks) {
    await ctx.db.delete(davLocks).where(eq(davLocks.id, lock.id));
    if (lock.fileId === null) continue;
    const [still] = await ctx.db.select({ id: davLocks.id }).from(davLocks).where(and(eq(davLocks.fileId, lock.fileId), eq(davLocks.userId, lock.userId))).limit(1);
    if (still) continue;
    const [file] = await ctx.db.select({ versionId: files.currentVersionId, deletedAt: files.deletedAt }).from(files).where(eq(files.id, lock.fileId));
    // Through the API's unlock (its log) while the file is live; a trashed file's lock goes directly.
    const done = file?.versionId && !file.deletedAt ? await unlockFile(ctx, file.versionId).then(() => true, () => false) : false;
    if (!done) await ctx.db.delete(fileLocks).where(and(eq(fileLocks.fileId, lock.fileId), eq(fileLocks.ownerId, lock.userId)));
  }
}
