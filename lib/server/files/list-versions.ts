import "server-only";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { preparedOnce } from "@/db/prepared";
import { fileVersions } from "@/db/schema";
import type { AuthedCtx } from "../context";
import type { Mode } from "../present/mode";
import { getFileOrThrow } from "./get-file";
import { presentFiles, type FileJson } from "./present-files";

const versionsStatement = preparedOnce((db) =>
  db
    .select()
    .from(fileVersions)
    .where(and(eq(fileVersions.fileId, sql.placeholder("fileId")), isNull(fileVersions.deletedAt)))
    .orderBy(desc(fileVersions.number))
    .prepare("file_versions"),
);

/** GET /file/(fileId)/versions: every live version of the file, newest first. */
export async function listFileVersions(ctx: AuthedCtx, versionId: number, mode: Mode): Promise<FileJson[]> {
  const { file, folder, rights } = await getFileOrThrow(ctx.db, ctx.actor.user, versionId, "browse");
  const versions = await versionsStatement(ctx.db).execute({ fileId: file.id });
  return presentFiles(ctx, versions.map((version) => ({ file, version, folder })), mode, { rights: new Map([[folder.id, rights]]) });
}
