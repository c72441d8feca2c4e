import "server-only";
import { eq } from "drizzle-orm";
import { rights } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { deleteOnSubfolders, getRightOrThrow } from "./right-access";

/**
 * DELETE /right/(rightId): the target falls back on inherited rights. Needs the share right;
 * `recursive` also removes the target's rights on every subfolder, where the caller must hold
 * the share right too (removing a restriction there would widen access).
 */
export async function deleteRight(ctx: AuthedCtx, rightId: number, options: { recursive: boolean }): Promise<void> {
  const user = ctx.actor.user;
  await ctx.db.transaction(async (tx) => {
    const { right, folder } = await getRightOrThrow(tx, user, rightId);
    const below = options.recursive ? await deleteOnSubfolders(tx, user, folder.id, right.targetId) : 0;
    await tx.delete(rights).where(eq(rights.id, right.id));
    await writeLog(tx, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_DELETE",
      message: `Removed the right of ${right.targetId} on folder ${folder.name}${below ? ` and ${below} subfolders` : ""}`,
      objectType: "right",
      objectId: right.id,
      object: folder.name,
    });
  });
}
