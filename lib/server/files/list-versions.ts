import "server-only";
import { and, desc, eq, isNull } from "drizzle-orm";
import { fileVersions } from "@/db/schema";
import type { AuthedCtx } from "../context";
import type { Mode } from "../present/mode";
import { getFileOrThrow } from "./get-file";
import { presentFiles, type FileJson } from "./present-files";

/** GET /file/(fileId)/versions: every live version of the file, newest first. */
export async function listFileVersions(ctx: AuthedCtx, versionId: number, mode: Mode): Promise<FileJson[]> {
  const { file, folder, rights } = await getFileOrThrow(ctx.db, ctx.actor.user, versionId, "browse");
  const versions = await ctx.db
    .select()
    .from(fileVersions)
    .where(and(eq(fileVersions.fileId, file.id), isNull(fileVersions.deletedAt)))
    .orderBy(desc(fileVersions.number));
  return presentFiles(ctx, versions.map((version) => ({ file, version, folder })), mode, { rights: new Map([[folder.id, rights]]) });
}
