import "server-only";
import { eq } from "drizzle-orm";
import { fileLocks, files } from "@/db/schema";
import type { LockResponse } from "@/lib/contracts/locks";
import { writeLog } from "../audit/write-log";
import { getPlatformConfig } from "../config/platform-config";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { FILE_EVENT, recordEvent } from "../events/record-event";
import { getFileOrThrow } from "../files/get-file";
import { loadLocks, presentLock } from "./serialize-lock";

/**
 * PUT /lock/(fileId): locks the file for the caller (edit right). Locking again one's own lock
 * answers the same Lock; a lock held by someone else is a 423. With the platform's lock feature
 * off, locking is refused (403). Records a "lock active" timeline event and a log entry.
 */
export async function lockFile(ctx: AuthedCtx, versionId: number): Promise<LockResponse> {
  const user = ctx.actor.user;
  if (!(await getPlatformConfig(ctx.db)).features.lock) throw new AppError("forbidden", "Locking files is disabled on this platform");
  return ctx.db.transaction(async (tx) => {
    const { file, version } = await getFileOrThrow(tx, user, versionId, "edit");
    // Serialises lockers of one file: the second one sees the first one's lock.
    await tx.select({ id: files.id }).from(files).where(eq(files.id, file.id)).for("update");
    const held = (await loadLocks(tx, [file.id])).get(file.id);
    if (held && held.ownerId !== user.id) throw new AppError("locked", "This file is already locked by another user");
    if (held) return presentLock(tx, file, held, user.id);

    const [lock] = await tx.insert(fileLocks).values({ fileId: file.id, ownerId: user.id }).returning();
    const json = await presentLock(tx, file, lock, user.id);
    await recordEvent(tx, ctx.request, { targetType: "file", targetId: file.id, versionId: version.id, type: FILE_EVENT.lock, actorId: user.id, data: json });
    await writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_UPDATE", message: `Locked ${file.name}`, objectType: "file", objectId: version.id, object: file.name });
    return json;
  });
}
