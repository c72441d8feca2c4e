import "server-only";
import type { AuthedCtx } from "../context";
import { enqueueJob } from "../jobs/enqueue";
import { META_JOB } from "../previews/enqueue-derivatives";
import type { Mode } from "../present/mode";
import { getFileOrThrow } from "./get-file";
import { presentFiles, type FileJson } from "./present-files";

/**
 * GET /file/(fileId): one version; `latest` answers with the newest version instead. `meta` is read
 * from the content (a document's author, title, keywords): a reader sees it; a caller who may only
 * browse the folder gets the File without it, as the contract's clients expect of an unknown field.
 */
export async function readFile(ctx: AuthedCtx, versionId: number, options: { meta: boolean; latest: boolean; mode: Mode }): Promise<FileJson> {
  const { file, version, folder, rights } = await getFileOrThrow(ctx.db, ctx.actor.user, versionId, "browse", { latest: options.latest });
  const meta = options.meta && rights.read;
  const [json] = await presentFiles(ctx, [{ file, version, folder }], options.mode, { meta, rights: new Map([[folder.id, rights]]) });
  // Metadata never read (a version from before its job existed): read now, shown from the next call
  // on. A version whose job is pending keeps that one (same key).
  if (meta && version.meta === null) await enqueueJob(ctx.db, META_JOB, { versionId: version.id }, { dedupeKey: `${META_JOB}:${version.id}` });
  return json;
}
