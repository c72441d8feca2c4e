import "server-only";
import fs from "node:fs/promises";
import { and, eq } from "drizzle-orm";
import { uploads } from "@/db/schema";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { commitUpload, type CommitResult } from "../files/commit-upload";
import { getTus } from "./tus-server";
import { assertUploadAllowed } from "./upload-target";
import { claimUpload, dropUpload, releaseUpload, tusFile, tusUploadId } from "./upload-sessions";

/**
 * POST /file/tus with `{token}` (api.md): turns a complete tus upload into the file (or its next
 * version). The tus data becomes the blob by a rename (with the MD5 computed while it arrived, or
 * by reading it once when that was not possible) and goes through commitUpload like every other
 * upload. 409 while bytes are still missing.
 */
export async function finishTusUpload(ctx: AuthedCtx, sessionKey: string): Promise<CommitResult> {
  const uploadId = tusUploadId(sessionKey);
  const [session] = await ctx.db
    .select()
    .from(uploads)
    .where(and(eq(uploads.id, uploadId), eq(uploads.kind, "tus"), eq(uploads.userId, ctx.actor.user.id)))
    .limit(1);
  if (!session) throw new AppError("not_found", "No open upload for this session key");

  const { store: tusStore } = getTus();
  const upload = await tusStore.getUpload(uploadId).catch(() => null);
  const received = upload?.offset ?? 0;
  if (!upload || received !== session.size) {
    throw new AppError("conflict", `The upload is not complete: ${received} of ${session.size} bytes received`, { offset: received, size: session.size });
  }
  // Refuse before moving anything when the file can no longer be committed (rights, lock).
  await assertUploadAllowed(ctx, { folderId: session.folderId, name: session.name });

  if (!(await claimUpload(ctx.db, uploadId, ctx.actor.user.id))) throw new AppError("conflict", "This upload is already being finished");
  let blob;
  try {
    const size = session.size ?? received;
    const md5 = await tusStore.takeMd5(uploadId, size);
    blob = await getBlobStore().adoptFile(tusFile(uploadId), md5 ? { md5, size } : {});
  } catch (error) {
    await releaseUpload(ctx.db, uploadId).catch(() => {});
    throw error;
  }
  await fs.rm(`${tusFile(uploadId)}.json`, { force: true });
  try {
    return await commitUpload(ctx, { folderId: session.folderId, name: session.name, blob, mime: upload.metadata?.filetype ?? undefined });
  } finally {
    // The data now belongs to the file, or was deleted with the failed commit: the session is over.
    await dropUpload(ctx.db, uploadId);
  }
}
