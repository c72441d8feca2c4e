import "server-only";
import { eq } from "drizzle-orm";
import { users } from "@/db/schema";
import { getBlobStore } from "@/lib/server/blobs/stores";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { getPictureOwnerOrThrow } from "./picture-owner";

/** DELETE /account/picture and DELETE /user/(id)/picture; no picture is already the wanted state (204). */
export async function deletePicture(ctx: AuthedCtx, userId: number): Promise<void> {
  const user = await getPictureOwnerOrThrow(ctx, userId, "write");
  const previous = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.select({ blobId: users.pictureBlobId }).from(users).where(eq(users.id, user.id)).for("update");
    if (!row?.blobId) return null;
    await tx.update(users).set({ pictureBlobId: null }).where(eq(users.id, user.id));
    await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, { type: "ADMLLOG_UPDATE", message: `Removed the picture of ${user.login}`, objectType: "user", objectId: user.id, object: user.login });
    return row.blobId;
  });
  // After the commit: a failed delete leaves an orphan blob for garbage collection, never a dangling reference.
  if (previous) await getBlobStore().delete(previous).catch(() => {});
}
