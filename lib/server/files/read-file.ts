import "server-only";
import type { AuthedCtx } from "../context";
import type { Mode } from "../present/mode";
import { getFileOrThrow } from "./get-file";
import { presentFiles, type FileJson } from "./present-files";

/** GET /file/(fileId): one version; `latest` answers with the newest version instead. */
export async function readFile(ctx: AuthedCtx, versionId: number, options: { meta: boolean; latest: boolean; mode: Mode }): Promise<FileJson> {
  const { file, version, folder, rights } = await getFileOrThrow(ctx.db, ctx.actor.user, versionId, "browse", { latest: options.latest });
  const [json] = await presentFiles(ctx, [{ file, version, folder }], options.mode, { meta: options.meta, rights: new Map([[folder.id, rights]]) });
  return json;
}
