import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { rows } from "@/db";
import { pipelinedTransaction, settleAll, type CommitWith } from "@/db/pipelined-transaction";
import { blobs, fileVersions, files, folders, type FileRow, type FileVersion, type Folder } from "@/db/schema";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { StoredBlob } from "@/lib/storage/blob-store";
import { recordFolderChange } from "../alerts/record-folder-change";
import { writeLog } from "../audit/write-log";
import { getPlatformConfig, type PlatformConfig } from "../config/platform-config";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { FILE_EVENT, recordEvent } from "../events/record-event";
import { getFolderOrThrow } from "../folders/get-folder";
import { enqueueDerivatives, findFinishedDerivatives, findReadMeta } from "../previews/enqueue-derivatives";
import { assertLockAllows } from "../locks/assert-not-locked";
import type { LockRow } from "../locks/serialize-lock";
import { exhausted } from "../quotas/assert-quota";
import { exceededQuota, readQuotaStanding } from "../quotas/quota-standing";
import { findLiveFileForUpload, findLiveFileByName } from "./live-files";
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

/**
 * `rights`: the caller's rights in the folder, as checked in the commit; `lock`: the file's lock
 * as seen there (null for a new file). Presenting the file needs both, without asking again.
 */
export type CommitResult = { file: FileRow; version: FileVersion; folder: Folder; created: boolean; rights: Rights; lock: LockRow | null };

/**
 * The one way content becomes visible: multipart, chunked and tus uploads, WebDAV, copies and
 * clones all end here. In one transaction it checks rights, locks and quotas (holding the quota
 * rows, so concurrent uploads cannot exceed them together) and creates the file or its next
 * version. On any failure the new blob is deleted, so nothing half-done stays behind. The stored
 * type comes from the blob's first bytes and the name (sniffStoredType), whatever the client said.
 *
 * Two round trips after BEGIN when nothing is in the way: everything the commit decides on, then
 * every write. The rows every upload of a user or into a folder updates (the user's usage, kept
 * by a trigger on file_versions, and the folder's modification date) are written last, so that
 * concurrent uploads wait for each other only for the end of the transaction.
 */
export async function commitUpload(ctx: AuthedCtx, input: CommitInput): Promise<CommitResult> {
  try {
    // Read before the transaction: no row stays locked during the blob read, and a reload of the
    // configuration (cached 2 s) is not a round trip of its own inside the transaction.
    const [mime, config] = await Promise.all([sniffStoredType(input.blob, input.name), getPlatformConfig(ctx.db)]);
    return await pipelinedTransaction(ctx.db, (tx, commitWith) => commitInTransaction({ ...ctx, db: tx }, input, { mime, config }, commitWith));
  } catch (error) {
    if (!input.sharedBlob) await getBlobStore().delete(input.blob.id).catch(() => {});
    throw error;
  }
}

type ReadBefore = { mime: string; config: PlatformConfig };

async function commitInTransaction(ctx: AuthedCtx, input: CommitInput, { mime, config }: ReadBefore, commitWith: CommitWith): Promise<CommitResult> {
  const { db } = ctx;
  const user = ctx.actor.user;
  let name = validateName(input.name);
  const quotas = { userId: user.id, folderId: input.folderId, platformQuota: config.quota };

  // Everything the commit decides on, sent together: one round trip. Where the order matters, the
  // first statement is started with execute(), which hands it to the driver before any statement
  // started after it (statements of one connection run in the order they reach it): the lookup of
  // the name runs once the name's lock is held, so uploads of one name into one folder queue up
  // (50 concurrent uploads become 50 versions) and each sees the previous one's file. The quota
  // rows are locked, then counted (readQuotaStanding). The ids of the rows to create let every
  // write be sent at once below. A copy looks for the finished thumbnail and text of its blob, and its metadata.
  const [access, , found, standing, ids, finished, readMeta] = await settleAll([
    getFolderOrThrow(db, user, input.folderId, "browse"),
    db.execute(sql`SELECT pg_advisory_xact_lock(${input.folderId}::int, hashtext(lower(normalize(${name}, NFC))))`).execute(),
    findLiveFileForUpload(db, input.folderId, name),
    readQuotaStanding(db, quotas, { lock: true }),
    db.execute(sql`SELECT nextval(pg_get_serial_sequence('files', 'id'))::int AS file_id, nextval(pg_get_serial_sequence('file_versions', 'id'))::int AS version_id`),
    input.sharedBlob ? findFinishedDerivatives(db, input.blob.id) : null,
    input.sharedBlob ? findReadMeta(db, input.blob.id) : null,
  ] as const);
  const { folder, rights } = access;
  let existing = found;
  if (existing && input.neverOverwrite) {
    name = await firstFreeName(name, async (candidate) => Boolean(await findLiveFileByName(db, folder.id, candidate)));
    existing = undefined;
  }
  if (existing) {
    if (!rights.edit) throw new AppError("forbidden", "A new version needs the edit right in this folder");
    assertLockAllows(existing.lock, user.id);
  } else if (!rights.write) {
    throw new AppError("forbidden", "Adding a file needs the write right in this folder");
  }
  const exceeded = exceededQuota(standing, input.blob.size);
  if (exceeded) throw exhausted(exceeded);

  const [{ file_id: newFileId, version_id: versionId }] = rows<{ file_id: number; version_id: number }>(ids);
  const fileId = existing?.file.id ?? newFileId;
  const now = new Date();
  // Read under the name lock: uploads of this file are in line, each sees the previous one's version.
  const number = existing ? existing.lastNumber + 1 : 1;
  const versionRow = {
    id: versionId,
    fileId,
    number,
    blobId: input.blob.id,
    size: input.blob.size,
    md5: input.blob.md5,
    mime,
    creatorId: user.id,
    createdAt: now,
    modifiedAt: now,
    // A copy keeps its source's metadata (same bytes); otherwise its job reads it (enqueueDerivatives).
    meta: readMeta ?? null,
  };
  // Every write, sent together with the COMMIT (postgres.js pipelines the statements of one
  // connection): one round trip, and the rows every upload of this user or into this folder
  // updates (their usage, kept by a trigger on file_versions, and the folder's date) stay locked
  // only until the COMMIT is done. Each is started here, none waits for anything. The file, then
  // its version, are started with execute(), before the rows that refer to them. A failure rolls
  // all back and is reported once all are done.
  const [, createdFile, , , , [version], updatedFile] = await commitWith([
    db.insert(blobs).values({ id: input.blob.id, size: input.blob.size, md5: input.blob.md5 }).onConflictDoNothing(),
    existing ? undefined : db.insert(files).values({ id: fileId, folderId: folder.id, name, ownerId: user.id, currentVersionId: versionId, createdAt: now, modifiedAt: now }).returning().execute(),
    recordEvent(db, ctx.request, { targetType: "file", targetId: fileId, versionId, type: FILE_EVENT.versionCreated, actorId: user.id }),
    recordFolderChange(db, ctx, { kind: existing ? "version_created" : "file_created", objectType: "file", objectId: fileId, objectName: name, folderId: folder.id }, config),
    writeLog(db, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_INSERT",
      message: existing ? `New version ${number} of ${name}` : `Uploaded ${name}`,
      objectType: "file",
      objectId: versionId,
      object: name,
    }),
    db.insert(fileVersions).values(versionRow).returning().execute(),
    existing ? db.update(files).set({ currentVersionId: versionId, modifiedAt: now }).where(eq(files.id, fileId)).returning() : undefined,
    // Versioning off: the new content replaces the old; older versions go for good (after the new one is in).
    existing && !config.features.versioning ? db.delete(fileVersions).where(and(eq(fileVersions.fileId, fileId), sql`${fileVersions.id} <> ${versionId}`)) : undefined,
    enqueueDerivatives(db, { id: versionId }, finished, { metaRead: readMeta !== null }),
    db.update(folders).set({ modifiedAt: now }).where(eq(folders.id, folder.id)),
  ] as const);
  const file = (updatedFile ?? createdFile)![0];
  return { file, version, folder, created: !existing, rights, lock: existing?.lock ?? null };
}
