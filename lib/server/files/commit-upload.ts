import "server-only";
import { and, eq, max, sql } from "drizzle-orm";
import { blobs, fileVersions, files, folders, type FileRow, type FileVersion, type Folder } from "@/db/schema";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { StoredBlob } from "@/lib/storage/blob-store";
import { recordFolderChange } from "../alerts/record-folder-change";
import { writeLog } from "../audit/write-log";
import { getPlatformConfig } from "../config/platform-config";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { FILE_EVENT, recordEvent } from "../events/record-event";
import { getFolderOrThrow } from "../folders/get-folder";
import { enqueueDerivatives } from "../previews/enqueue-derivatives";
import { assertNotLockedByOther } from "../locks/assert-not-locked";
import { assertQuota } from "../quotas/assert-quota";
import { findLiveFileByName } from "./live-files";
import { firstFreeName, validateName } from "./names";
import type { Rights } from "../rights/rights";
import { sniffStoredType } from "./content-type";

export type CommitInput = {
  folderId: number;
  name: string;
  blob: StoredBlob;
  /**
   * What the client declared (multipart part type, tus `filetype`, chunked `mime`) or the source
   * version's type for copies. Never stored: the server decides the type from the bytes and the
   * name (api.md, "Served types"), so a declared type cannot make an HTML page a PDF or an image.
   */
  mime?: string;
  /** Drop links: never replace an existing file; use a numbered name instead. */
  neverOverwrite?: boolean;
  /** A blob that already belongs to other versions (copies, clones) must not be deleted on failure. */
  sharedBlob?: boolean;
};

/** `rights`: the caller's rights in the folder, as checked in the commit (presenting the file needs them). */
export type CommitResult = { file: FileRow; version: FileVersion; folder: Folder; created: boolean; rights: Rights };

/**
 * The one way content becomes visible: multipart, chunked and tus uploads, copies and clones all
 * end here. In one transaction it checks rights, locks and quotas (holding the quota rows, so
 * concurrent uploads cannot exceed them together) and creates the file or its next version.
 * On any failure the new blob is deleted, so nothing half-done stays behind. The stored type
 * comes from the blob's first bytes and the name (sniffStoredType), whatever the client said.
 */
export async function commitUpload(ctx: AuthedCtx, input: CommitInput): Promise<CommitResult> {
  try {
    // Read before the transaction: no row stays locked during the blob read.
    const mime = await sniffStoredType(input.blob, input.name);
    return await ctx.db.transaction((tx) => commitInTransaction({ ...ctx, db: tx }, input, mime));
  } catch (error) {
    if (!input.sharedBlob) await getBlobStore().delete(input.blob.id).catch(() => {});
    throw error;
  }
}

async function commitInTransaction(ctx: AuthedCtx, input: CommitInput, mime: string): Promise<CommitResult> {
  const { db } = ctx;
  const user = ctx.actor.user;
  let name = validateName(input.name);
  const { folder, rights } = await getFolderOrThrow(db, user, input.folderId, "browse");

  // Uploads of one name into one folder queue up here: 50 concurrent uploads become 50 versions.
  // Sent together, the lock first (started by then(), at once): the lookup runs once the lock is
  // held, since the statements of a connection run in the order they were sent.
  const locked = db.execute(sql`SELECT pg_advisory_xact_lock(${folder.id}::int, hashtext(lower(normalize(${name}, NFC))))`).then(() => undefined);
  const [, found] = await Promise.all([locked, findLiveFileByName(ctx.db, folder.id, name)]);
  let existing: FileRow | undefined = found;
  if (existing && input.neverOverwrite) {
    name = await firstFreeName(name, async (candidate) => Boolean(await findLiveFileByName(ctx.db, folder.id, candidate)));
    existing = undefined;
  }
  if (existing) {
    if (!rights.edit) throw new AppError("forbidden", "A new version needs the edit right in this folder");
    await assertNotLockedByOther(db, existing.id, user.id);
  } else if (!rights.write) {
    throw new AppError("forbidden", "Adding a file needs the write right in this folder");
  }

  await assertQuota(db, { userId: user.id, folder }, input.blob.size, { lock: true });

  const now = new Date();
  // The blob row and the file row (or the last version number) do not depend on each other: sent together.
  const blobRow = db.insert(blobs).values({ id: input.blob.id, size: input.blob.size, md5: input.blob.md5 }).onConflictDoNothing().then(() => undefined);
  const fileRow: Promise<{ file: FileRow; last: number | null }> = existing
    ? db.select({ last: max(fileVersions.number) }).from(fileVersions).where(eq(fileVersions.fileId, existing.id)).then(([row]) => ({ file: existing, last: row.last }))
    : // A file created just now has no version yet: no need to ask for its last number.
      db.insert(files).values({ folderId: folder.id, name, ownerId: user.id, createdAt: now, modifiedAt: now }).returning().then(([row]) => ({ file: row, last: 0 }));
  await settleAll([blobRow, fileRow]);
  const { file, last } = await fileRow;
  const [version] = await db
    .insert(fileVersions)
    .values({
      fileId: file.id,
      number: (last ?? 0) + 1,
      blobId: input.blob.id,
      size: input.blob.size,
      md5: input.blob.md5,
      mime,
      creatorId: user.id,
      createdAt: now,
      modifiedAt: now,
    })
    .returning();
  // What follows depends only on the version: sent together (postgres.js pipelines the statements
  // of one connection, in the order they are issued), so the transaction waits for a few round
  // trips instead of eight. The current version moves first: with versioning off, the older versions go after it.
  const updating = db.update(files).set({ currentVersionId: version.id, modifiedAt: now }).where(eq(files.id, file.id)).returning();
  const updated = updating.then(([row]) => row);
  await settleAll([
    updated,
    updated.then(async () => {
      const config = await getPlatformConfig(db);
      // Versioning off: the new content replaces the old; older versions go for good.
      if (existing && !config.features.versioning) await db.delete(fileVersions).where(and(eq(fileVersions.fileId, file.id), sql`${fileVersions.id} <> ${version.id}`));
    }),
    recordEvent(db, ctx.request, { targetType: "file", targetId: file.id, versionId: version.id, type: FILE_EVENT.versionCreated, actorId: user.id }),
    recordFolderChange(db, ctx, { kind: existing ? "version_created" : "file_created", objectType: "file", objectId: file.id, objectName: name, folderId: folder.id }),
    enqueueDerivatives(db, version, input.sharedBlob),
    writeLog(db, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_INSERT",
      message: existing ? `New version ${version.number} of ${name}` : `Uploaded ${name}`,
      objectType: "file",
      objectId: version.id,
      object: name,
    }),
  ]);
  // Last, so that the folder row stays locked only for the commit: uploads into one folder queue here.
  await db.update(folders).set({ modifiedAt: now }).where(eq(folders.id, folder.id));
  return { file: await updated, version, folder, created: !existing, rights };
}

/**
 * Waits for every statement sent together, then fails with the first failure: nothing of the
 * transaction may still be under way (or be sent after it, outside it) once it rolls back.
 */
async function settleAll(work: Promise<unknown>[]): Promise<void> {
  const results = await Promise.allSettled(work);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}
