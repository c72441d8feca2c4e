import "server-only";
import { inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { files, type Annotation } from "@/db/schema";
import type { AnnotationResponse } from "@/lib/contracts/annotations";
import { loadOwnerNames } from "../users/owner-names";

/** The contract's Annotations: authors' names and files' current version ids in two queries. */
export async function presentAnnotations(db: DbOrTx, rows: Annotation[]): Promise<AnnotationResponse[]> {
  const names = await loadOwnerNames(db, rows.map((a) => a.authorId));
  const fileIds = [...new Set(rows.filter((a) => a.targetType === "file").map((a) => a.targetId))];
  const versions = new Map<number, number>();
  if (fileIds.length > 0) {
    const found = await db.select({ id: files.id, versionId: files.currentVersionId }).from(files).where(inArray(files.id, fileIds));
    for (const f of found) if (f.versionId) versions.set(f.id, f.versionId);
  }
  return rows.map((a) => ({
    id: a.id,
    target_id: a.targetType === "file" ? (versions.get(a.targetId) ?? a.targetId) : a.targetId,
    target_type: a.targetType,
    owner: names.get(a.authorId) ?? "",
    owner_id: String(a.authorId),
    date: a.createdAt.toISOString(),
    text: a.text,
    conversation: a.conversation,
  }));
}

export const presentAnnotation = async (db: DbOrTx, row: Annotation) => (await presentAnnotations(db, [row]))[0];
