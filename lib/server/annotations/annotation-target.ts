import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { annotations, files, type Annotation, type User } from "@/db/schema";
import type { TargetType } from "@/lib/contracts/annotations";
import { AppError } from "../errors";
import { getFileOrThrow } from "../files/get-file";
import { getFolderOrThrow } from "../folders/get-folder";
import type { RightName, Rights } from "../rights/rights";

/** Where annotations are stored (files by logical id) and the caller's rights in its folder. */
export type AnnotationTarget = { type: TargetType; id: number; name: string; versionId: number | null; rights: Rights };

type Who = Pick<User, "id" | "role">;

/** The target as the client names it (a file by one of its version ids), checked for `need`. */
export async function getTargetOrThrow(db: DbOrTx, user: Who, type: TargetType, apiId: number, need: RightName = "read"): Promise<AnnotationTarget> {
  if (type === "folder") {
    const { folder, rights } = await getFolderOrThrow(db, user, apiId, need);
    return { type, id: folder.id, name: folder.name, versionId: null, rights };
  }
  const { file, version, rights } = await getFileOrThrow(db, user, apiId, need);
  return { type, id: file.id, name: file.name, versionId: version.id, rights };
}

/** The target of a stored annotation; a file is reached through its current version. */
export async function getStoredTargetOrThrow(db: DbOrTx, user: Who, type: TargetType, storedId: number, need: RightName = "read") {
  if (type === "folder") return getTargetOrThrow(db, user, type, storedId, need);
  const [file] = await db.select({ versionId: files.currentVersionId }).from(files).where(and(eq(files.id, storedId), isNull(files.deletedAt)));
  if (!file?.versionId) throw new AppError("not_found", "Annotation not found");
  return getTargetOrThrow(db, user, type, file.versionId, need);
}

/** A live annotation whose target the caller may read (404 unknown, 403/404 per the target). */
export async function getAnnotationOrThrow(db: DbOrTx, user: Who, annotationId: number): Promise<{ annotation: Annotation; target: AnnotationTarget }> {
  const [annotation] = await db.select().from(annotations).where(and(eq(annotations.id, annotationId), isNull(annotations.deletedAt)));
  if (!annotation) throw new AppError("not_found", "Annotation not found");
  const target = await getStoredTargetOrThrow(db, user, annotation.targetType, annotation.targetId, "read");
  return { annotation, target };
}
