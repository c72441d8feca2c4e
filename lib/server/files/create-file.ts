import "server-only";
import { Readable } from "node:stream";
import { and, desc, eq, isNull } from "drizzle-orm";
import { fileVersions, files } from "@/db/schema";
import type { CreateFileBody } from "@/lib/contracts/files";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { getFolderOrThrow } from "../folders/get-folder";
import type { Mode } from "../present/mode";
import { commitUpload, type CommitResult } from "./commit-upload";
import { getFileOrThrow } from "./get-file";
import { validateName, sameName } from "./names";
import { presentCommitted, presentFiles, type FileJson } from "./present-files";

export type CreateFileResult = { created: boolean; file: FileJson };

/**
 * POST /file. With `copy`, the given version is copied under `name` into `parent_id` (the
 * source's folder by default). With `hash` matching an earlier version of the file of that name,
 * that version is cloned as the newest (200). Otherwise an empty file, or an empty new version
 * of the existing one, is created (201). Copies and clones share the blob; commitUpload applies
 * rights (write for a new file, edit for a new version), locks (423) and quotas (507).
 */
export async function createFile(ctx: AuthedCtx, body: CreateFileBody, options: { copy?: number; mode: Mode }): Promise<CreateFileResult> {
  const name = validateName(body.name);
  if (options.copy !== undefined) return copyFile(ctx, options.copy, name, body.parent_id, options.mode);

  const folderId = body.parent_id ?? privateRootOf(ctx);
  if (body.hash) {
    const match = await findVersionByHash(ctx, folderId, name, body.hash);
    if (match && match.version.id === match.file.currentVersionId) {
      // Already the newest: nothing to clone, but only someone who could have cloned it learns so.
      const { rights } = await getFolderOrThrow(ctx.db, ctx.actor.user, folderId, "edit");
      const [json] = await presentFiles(ctx, [match], options.mode, { rights: new Map([[match.folder.id, rights]]) });
      return { created: false, file: json };
    }
    if (match?.version.blobId) {
      const blob = { id: match.version.blobId, size: match.version.size, md5: match.version.md5 };
      const result = await commitUpload(ctx, { folderId, name, blob, mime: match.version.mime, sharedBlob: true });
      return { created: false, file: await present(ctx, result, options.mode) };
    }
  }
  const blob = await getBlobStore().put(Readable.from([]));
  const result = await commitUpload(ctx, { folderId, name, blob });
  return { created: true, file: await present(ctx, result, options.mode) };
}

/** Copy needs read and download on the source (contract); write or edit at the destination is commitUpload's. */
async function copyFile(ctx: AuthedCtx, sourceId: number, name: string, parentId: number | undefined, mode: Mode): Promise<CreateFileResult> {
  const source = await getFileOrThrow(ctx.db, ctx.actor.user, sourceId, "read");
  if (!source.rights.download) throw new AppError("forbidden", "Copying a file needs the download right in its folder");
  const { blobId, size, md5, mime } = source.version;
  if (!blobId) throw new AppError("not_found", "The content of this file is missing");
  const result = await commitUpload(ctx, { folderId: parentId ?? source.folder.id, name, blob: { id: blobId, size, md5 }, mime, sharedBlob: true });
  return { created: true, file: await present(ctx, result, mode) };
}

async function findVersionByHash(ctx: AuthedCtx, folderId: number, name: string, hash: string) {
  const [match] = await ctx.db
    .select({ version: fileVersions, file: files })
    .from(fileVersions)
    .innerJoin(files, eq(files.id, fileVersions.fileId))
    .where(
      and(
        eq(files.folderId, folderId),
        isNull(files.deletedAt),
        sameName(files.nameKey, name),
        eq(fileVersions.md5, hash),
        isNull(fileVersions.deletedAt),
      ),
    )
    .orderBy(desc(fileVersions.number))
    .limit(1);
  if (!match) return undefined;
  const { folder } = await getFolderOrThrow(ctx.db, ctx.actor.user, folderId, "browse");
  return { ...match, folder };
}

function privateRootOf(ctx: AuthedCtx): number {
  const root = ctx.actor.user.privateRootId;
  if (!root) throw new AppError("invalid_request", "parent_id is required: you have no private space", [{ path: "parent_id", message: "required" }]);
  return root;
}

function present(ctx: AuthedCtx, result: CommitResult, mode: Mode): Promise<FileJson> {
  return presentCommitted(ctx, result, mode);
}
