import "server-only";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { eq } from "drizzle-orm";
import { blobs, fileVersions, files } from "@/db/schema";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { StoredBlob } from "@/lib/storage/blob-store";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { getFileOrThrow, type FileAccess } from "../files/get-file";
import { assertNotLockedByOther } from "../locks/assert-not-locked";
import { enqueueDerivatives } from "../previews/enqueue-derivatives";
import type { BodySource } from "../http/body-source";
import { assertQuota, remainingQuota } from "../quotas/assert-quota";

const MiB = 1 << 20;

/**
 * PUT /file/(fileId)/upload (rest-interface: Replace content): the body, `application/octet-stream`,
 * becomes the content of the file's current version; no version is created. `Content-Length`,
 * when sent, is checked against the quota before a byte is stored and against the bytes received
 * (400 on a mismatch, nothing changed). The old blob is left to garbage collection.
 */
export async function replaceContent(ctx: AuthedCtx, versionId: number, source: BodySource): Promise<FileAccess> {
  const type = source.headers.get("content-type")?.split(";")[0].trim().toLowerCase();
  if (type !== "application/octet-stream") {
    throw new AppError("unsupported_media_type", "Replacing content needs Content-Type: application/octet-stream");
  }
  const declared = parseLength(source.headers.get("content-length"));
  const access = await getFileOrThrow(ctx.db, ctx.actor.user, versionId, "edit", { latest: true });
  await assertNotLocked(ctx, access.file.id);
  if (declared !== undefined && declared > access.version.size) {
    await assertQuota(ctx.db, { userId: access.version.creatorId, folder: access.folder }, declared - access.version.size, { lock: false });
  }

  const store = getBlobStore();
  // A body refused half-way (length mismatch, store failure) is drained, never cut (trap 16).
  const body = source.body;
  let interrupted = false;
  body.once("error", () => (interrupted = true));
  // Without Content-Length, the body may not outgrow what the quotas leave (plus the bytes it replaces).
  const room = await remainingQuota(ctx.db, { userId: access.version.creatorId, folder: access.folder });
  const limit = declared ?? (Number.isFinite(room) ? room + access.version.size : undefined);
  const blob = await store
    .put(limit === undefined ? body : limitTo(body, limit, declared === undefined), { expectedBytes: declared })
    .catch((error) => {
      // A client that goes away is not a server failure.
      throw interrupted && !(error instanceof AppError) ? new AppError("invalid_request", "The request body was interrupted") : error;
    })
    .finally(() => source.release());
  try {
    if (declared !== undefined && blob.size !== declared) throw lengthMismatch(declared, String(blob.size));
    return await ctx.db.transaction((tx) => swapContent({ ...ctx, db: tx }, access, blob));
  } catch (error) {
    await store.delete(blob.id).catch(() => {});
    throw error;
  }
}

async function swapContent(ctx: AuthedCtx, access: FileAccess, blob: StoredBlob): Promise<FileAccess> {
  const { db } = ctx;
  // The version must still be the current one and still unlocked once its row is ours.
  const [version] = await db.select().from(fileVersions).where(eq(fileVersions.id, access.version.id)).for("update");
  const [file] = await db.select().from(files).where(eq(files.id, access.file.id));
  if (!version || version.deletedAt || !file || file.deletedAt || file.currentVersionId !== version.id) {
    throw new AppError("conflict", "The file changed meanwhile; try again");
  }
  await assertNotLocked(ctx, file.id);
  if (blob.size > version.size) {
    // The uploader of the version carries it in their quota; only the growth needs room.
    await assertQuota(db, { userId: version.creatorId, folder: access.folder }, blob.size - version.size, { lock: true });
  }
  const now = new Date();
  await db.insert(blobs).values({ id: blob.id, size: blob.size, md5: blob.md5 }).onConflictDoNothing();
  // The metadata extracted from the old content (pages, author...) no longer applies.
  const [updated] = await db
    .update(fileVersions)
    .set({ blobId: blob.id, size: blob.size, md5: blob.md5, modifiedAt: now, meta: null })
    .where(eq(fileVersions.id, version.id))
    .returning();
  const [touched] = await db.update(files).set({ modifiedAt: now }).where(eq(files.id, file.id)).returning();
  await enqueueDerivatives(db, updated);
  await writeLog(db, { actor: ctx.actor.user, request: ctx.request }, {
    type: "ADMLLOG_UPDATE",
    message: `Replaced the content of ${file.name} (version ${version.number})`,
    objectType: "file",
    objectId: version.id,
    object: file.name,
  });
  return { ...access, file: touched, version: updated };
}

async function assertNotLocked(ctx: AuthedCtx, fileId: number) {
  await assertNotLockedByOther(ctx.db, fileId, ctx.actor.user.id);
}

function parseLength(header: string | null): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const n = Number(header);
  if (!Number.isSafeInteger(n) || n < 0) throw new AppError("invalid_request", "Content-Length must be a number of bytes", [{ path: "Content-Length", message: "invalid" }]);
  return n;
}

/** One byte more than announced (or than the quotas leave) is enough to know the body is wrong: stop reading there. */
function limitTo(body: Readable, limit: number, isQuota: boolean): Readable {
  let seen = 0;
  const limiter = new Transform({
    highWaterMark: MiB,
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen <= limit) return done(null, chunk);
      done(isQuota ? new AppError("insufficient_storage", "Storage exhausted: the content would exceed a quota") : lengthMismatch(limit, "more"));
    },
  });
  // pipeline, not pipe: a client that goes away must fail the limiter too (put then cleans up).
  pipeline(body, limiter).catch(() => {});
  return limiter;
}

const lengthMismatch = (declared: number, received: string) =>
  new AppError("invalid_request", `Content-Length announced ${declared} bytes, the body had ${received}`, [{ path: "Content-Length", message: "does not match the body" }]);
