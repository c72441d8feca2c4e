import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { uploads } from "@/db/schema";
import type { CancelUploadBody } from "@/lib/contracts/files";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { getFolderOrThrow } from "../folders/get-folder";
import { removeWorkFiles } from "../uploads/upload-sessions";
import { sameName } from "./names";

/**
 * DELETE /file/cancel: abandons the caller's unfinished uploads (chunked or tus) of `filename`
 * in `folderId`, with their work files. Nothing of them was visible or counted, so only the rows
 * and the files go. An upload being finished right now (claimed) is left to finish. 404 when the
 * caller has no such upload.
 */
export async function cancelUpload(ctx: AuthedCtx, input: CancelUploadBody): Promise<void> {
  const user = ctx.actor.user;
  const { folder } = await getFolderOrThrow(ctx.db, user, input.folderId, "write");
  const cancelled = await ctx.db.transaction(async (tx) => {
    const removed = await tx
      .delete(uploads)
      .where(
        and(
          eq(uploads.userId, user.id),
          eq(uploads.folderId, folder.id),
          sameName(uploads.name, input.filename, false),
          sql`(${uploads.context}->>'finishing' IS NULL OR (${uploads.context}->>'finishing')::timestamptz < now() - interval '1 hour')`,
        ),
      )
      .returning({ id: uploads.id });
    if (removed.length === 0) throw new AppError("not_found", "No unfinished upload of this name in this folder");
    await writeLog(tx, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_DELETE",
      message: `Cancelled the upload of ${input.filename}`,
      objectType: "folder",
      objectId: folder.id,
      object: input.filename,
    });
    return removed;
  });
  await Promise.all(cancelled.map((u) => removeWorkFiles(u.id)));
}
