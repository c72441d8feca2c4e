import "server-only";
import { and, count, inArray, isNull } from "drizzle-orm";
import { fileVersions, type FileRow, type FileVersion, type Folder } from "@/db/schema";
import type { FileResponse } from "@/lib/contracts/files";
import { annotationFields, countAnnotations, type AnnotationCounts } from "../annotations/count-annotations";
import type { AuthedCtx } from "../context";
import type { CommitResult } from "./commit-upload";
import { iso } from "../present/envelope";
import type { Mode } from "../present/mode";
import { displayName } from "../audit/write-log";
import { loadLocks, serializeLock, type LockRow } from "../locks/serialize-lock";
import { loadThumbnails, type ThumbnailFields } from "../previews/thumbnail-fields";
import { resolveRights } from "../rights/resolve-rights";
import { fileCans, type Rights } from "../rights/rights";
import { loadOwnerNames } from "../users/owner-names";
import { loadFileWorkflows } from "../workflows/file-workflows";

export type FileItem = { file: FileRow; version: FileVersion; folder: Pick<Folder, "id" | "path"> };
/** The contract's File, so the compiler checks what is written (lib/contracts/files.ts). */
export type FileJson = FileResponse;

/** Serialises file versions for the caller in the contract's modes, in a bounded number of queries. */
export async function presentFiles(
  ctx: AuthedCtx,
  items: FileItem[],
  mode: Mode,
  options: { meta?: boolean; rights?: Map<number, Rights>; locks?: Map<number, LockRow>; names?: Map<number, string> } = {},
): Promise<FileJson[]> {
  if (items.length === 0) return [];
  const userId = ctx.actor.user.id;
  const folderIds = items.map((i) => i.file.folderId);
  const known = options.rights ?? new Map<number, Rights>();
  const missing = folderIds.filter((id) => !known.has(id));
  const rights = missing.length ? new Map([...known, ...(await resolveRights(ctx.db, ctx.actor.user, missing))]) : known;
  // `locks`, when given, holds every lock of the items (none: unlocked); `names` some of the names.
  const locks = options.locks ?? (await loadLocks(ctx.db, items.map((i) => i.file.id)));
  const knownNames = options.names ?? new Map<number, string>();
  const nameIds = [...items.map((i) => i.version.creatorId), ...[...locks.values()].map((l) => l.ownerId)].filter((id) => !knownNames.has(id));
  const names = nameIds.length ? new Map([...knownNames, ...(await loadOwnerNames(ctx.db, nameIds))]) : knownNames;
  const full = mode === "full";
  const [versionCounts, annotationCounts, thumbnails, workflows] = full
    ? await Promise.all([
        countVersions(ctx, items.map((i) => i.file.id)),
        countAnnotations(ctx.db, userId, "file", items.map((i) => i.file.id)),
        loadThumbnails(ctx.db, userId, items.map((i) => ({ versionId: i.version.id, mime: i.version.mime, name: i.file.name }))),
        loadFileWorkflows(ctx.db, items.map((i) => i.file.id)),
      ])
    : [new Map<number, number>(), new Map<number, AnnotationCounts>(), new Map<number, ThumbnailFields>(), new Map()];

  return items.map(({ file, version, folder }) => {
    const lock = locks.get(file.id);
    const json: FileJson = {
      id: version.id,
      guid: file.guid,
      name: file.name,
      parent_id: file.folderId,
      size: version.size,
      modification: iso(file.modifiedAt),
      ...fileCans(rights.get(file.folderId)!),
      hash: version.md5,
      lock: lock ? serializeLock(file, lock, userId, names.get(lock.ownerId) ?? "") : null,
    };
    if (mode !== "light") {
      json.creation = version.createdAt.toISOString();
      json.owner = names.get(version.creatorId) ?? "";
      json.owner_id = String(version.creatorId);
    }
    if (full) {
      const n = versionCounts.get(file.id) ?? 1;
      if (n > 1) json.nb_versions = n;
      const annotations: Pick<FileResponse, "nb_annotations" | "nb_unread_annotations"> = annotationFields(annotationCounts.get(file.id));
      Object.assign(json, annotations);
      json.path = `/${[...folder.path, folder.id].join("/")}`;
      json.mime = version.mime;
      const thumbnail: ThumbnailFields | undefined = thumbnails.get(version.id);
      Object.assign(json, thumbnail);
      // api.md: while a workflow instance holds the file.
      const workflow = workflows.get(file.id);
      if (workflow) json.workflow = workflow;
    }
    // api.md, "File metadata": what its job read from the content; {} until it has run.
    if (options.meta) json.meta = (version.meta ?? {}) as FileResponse["meta"];
    return json;
  });
}

/**
 * A file just committed (commitUpload), for its uploader: the rights and the lock were read in the
 * commit and the uploader's name is the caller's (a lock it passed is theirs), so presenting it
 * asks nothing more unless the mode is `full`.
 */
export async function presentCommitted(ctx: AuthedCtx, result: CommitResult, mode: Mode, options: { meta?: boolean } = {}): Promise<FileJson> {
  const user = ctx.actor.user;
  const [json] = await presentFiles(ctx, [result], mode, {
    meta: options.meta,
    rights: new Map([[result.folder.id, result.rights]]),
    locks: new Map(result.lock ? [[result.file.id, result.lock]] : []),
    names: new Map([[user.id, displayName(user)]]),
  });
  return json;
}

async function countVersions(ctx: AuthedCtx, fileIds: number[]): Promise<Map<number, number>> {
  const found = await ctx.db
    .select({ fileId: fileVersions.fileId, n: count() })
    .from(fileVersions)
    .where(and(inArray(fileVersions.fileId, [...new Set(fileIds)]), isNull(fileVersions.deletedAt)))
    .groupBy(fileVersions.fileId);
  return new Map(found.map((r) => [r.fileId, Number(r.n)]));
}
