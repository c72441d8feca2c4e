import "server-only";
import { eq, sql } from "drizzle-orm";
import { rows, type DbOrTx } from "@/db";
import { fileLocks, files, type Folder, type User } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { getFileOrThrow } from "../files/get-file";
import { loadLocks } from "./serialize-lock";

/**
 * DELETE /lock/(fileId): removes the lock. Allowed to its holder, administrators, and the owner
 * of the space the file is in (the owner of its folder or of an ancestor), who must be able to
 * recover a file a collaborator left locked; others get 403. Unlocking an unlocked file is a
 * no-op. `all` (every version) changes nothing here: a lock covers the whole file.
 */
export async function unlockFile(ctx: AuthedCtx, versionId: number): Promise<void> {
  const user = ctx.actor.user;
  await ctx.db.transaction(async (tx) => {
    const { file, version, folder } = await getFileOrThrow(tx, user, versionId, "browse");
    await tx.select({ id: files.id }).from(files).where(eq(files.id, file.id)).for("update");
    const lock = (await loadLocks(tx, [file.id])).get(file.id);
    if (!lock) return;
    if (lock.ownerId !== user.id && user.role !== 3 && !(await ownsSpace(tx, user, folder))) {
      throw new AppError("forbidden", "Only the holder of the lock, the owner of the folder or an administrator can unlock this file");
    }
    await tx.delete(fileLocks).where(eq(fileLocks.fileId, file.id));
    await writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_UPDATE", message: `Unlocked ${file.name}`, objectType: "file", objectId: version.id, object: file.name });
  });
}

async function ownsSpace(db: DbOrTx, user: Pick<User, "id">, folder: Pick<Folder, "id" | "path">): Promise<boolean> {
  const chain = [...folder.path, folder.id];
  const found = rows(
    await db.execute(sql`SELECT 1 FROM folders WHERE id IN (${sql.join(chain.map((id) => sql`${id}`), sql`, `)}) AND owner_id = ${user.id} LIMIT 1`),
  );
  return found.length > 0;
}
