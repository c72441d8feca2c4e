import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { archives, folders, users, type Archive, type Folder, type User } from "@/db/schema";
import type { ArchiveResponse, UnarchiveInput } from "@/lib/contracts/archives";
import { writeLog } from "../audit/write-log";
import { logWho, type AuthedCtx } from "../context";
import { AppError } from "../errors";
import { getFolderOrThrow } from "../folders/get-folder";
import { enqueueJob } from "../jobs/enqueue";
import { assertQuota } from "../quotas/assert-quota";
import { resolveFolderRights } from "../rights/resolve-rights";
import { assertSettled, getOwnArchiveOrThrow } from "./archive-access";
import { presentArchive } from "./present-archives";

export const RESTORE_JOB = "archives.restore";

/**
 * PUT /archive/file/(id)/unarchive and /archive/folder/(id)/unarchive (api.md): back to its
 * original folder, or to `parent_id`, or to its owner's private space when the original folder is
 * gone. The caller needs the write right where it goes, and the bytes must fit that place's
 * quotas (507). A job writes the bytes back (state restoring); the object reappears, with a
 * numbered name if its own is taken there, once every byte is back. 200 Archive.
 */
export async function unarchive(ctx: AuthedCtx, type: "file" | "folder", apiId: number, input: UnarchiveInput): Promise<ArchiveResponse> {
  const user = ctx.actor.user;
  return ctx.db.transaction(async (tx) => {
    const archive = await getOwnArchiveOrThrow(tx, user, type, apiId, { lock: true });
    assertSettled(archive);
    const dest = input.parent_id ? (await getFolderOrThrow(tx, user, input.parent_id, "write")).folder : await originalPlace(tx, user, archive);
    await assertQuota(tx, { userId: user.id, folder: dest }, archive.size, { lock: true });
    const [restoring] = await tx
      .update(archives)
      .set({ state: "restoring", restoreParentId: dest.id, updatedAt: sql`now()` })
      .where(eq(archives.id, archive.id))
      .returning();
    await enqueueJob(tx, RESTORE_JOB, { archiveId: archive.id }, { dedupeKey: `${RESTORE_JOB}:${archive.id}`, maxAttempts: 20 });
    await writeLog(tx, logWho(ctx, tx), { type: "ADMLLOG_RESTORE", message: `Unarchiving a ${archive.type} into folder ${dest.id}`, objectType: "archive", objectId: archive.id, object: archive.name });
    return presentArchive(tx, restoring);
  });
}

/** The original folder when it is still live (write right needed), else the owner's private space. */
async function originalPlace(db: DbOrTx, user: Pick<User, "id" | "role">, archive: Archive): Promise<Folder> {
  if (archive.originalParentId !== null) {
    const [original] = await db.select().from(folders).where(and(eq(folders.id, archive.originalParentId), isNull(folders.deletedAt)));
    if (original) {
      const rights = await resolveFolderRights(db, user, original.id);
      if (!rights.write) throw new AppError("forbidden", "You may no longer add files to its original folder: choose another one (parent_id)");
      return original;
    }
  }
  const [owner] = archive.ownerId === null ? [] : await db.select({ rootId: users.privateRootId }).from(users).where(eq(users.id, archive.ownerId));
  const rootId = owner?.rootId ?? null;
  const [root] = rootId === null ? [] : await db.select().from(folders).where(and(eq(folders.id, rootId), isNull(folders.deletedAt)));
  if (!root) throw new AppError("conflict", "Its original folder is gone and its owner has no private space: choose a folder (parent_id)");
  return root;
}
