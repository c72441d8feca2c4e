import "server-only";
import { and, count, eq, inArray, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { annotationReadMarks, annotationReads, annotations } from "@/db/schema";
import type { TargetType } from "@/lib/contracts/annotations";

export type AnnotationCounts = { total: number; unread: number };

/**
 * nb_annotations / nb_unread_annotations of many targets of one type (files by logical id) for
 * one user, in one query. An annotation is unread when someone else wrote it after the user last
 * listed that target and after they last marked all read. Targets without annotations are absent.
 */
export async function countAnnotations(db: DbOrTx, userId: number, type: TargetType, targetIds: number[]): Promise<Map<number, AnnotationCounts>> {
  const result = new Map<number, AnnotationCounts>();
  if (targetIds.length === 0) return result;
  const unread = sql<number>`count(*) filter (where ${annotations.authorId} <> ${userId}
    and ${annotations.createdAt} > coalesce(${annotationReads.readAt}, '-infinity')
    and ${annotations.createdAt} > coalesce(${annotationReadMarks.readAt}, '-infinity'))`.mapWith(Number);
  const rows = await db
    .select({ targetId: annotations.targetId, total: count(), unread })
    .from(annotations)
    .leftJoin(annotationReads, and(eq(annotationReads.userId, userId), eq(annotationReads.targetType, type), eq(annotationReads.targetId, annotations.targetId)))
    .leftJoin(annotationReadMarks, eq(annotationReadMarks.userId, userId))
    .where(and(eq(annotations.targetType, type), inArray(annotations.targetId, [...new Set(targetIds)]), isNull(annotations.deletedAt)))
    .groupBy(annotations.targetId, annotationReads.readAt, annotationReadMarks.readAt);
  for (const r of rows) result.set(r.targetId, { total: r.total, unread: r.unread });
  return result;
}

/** The contract's optional fields: present only when > 0. */
export function annotationFields(counts: AnnotationCounts | undefined) {
  return {
    ...(counts && counts.total > 0 ? { nb_annotations: counts.total } : {}),
    ...(counts && counts.unread > 0 ? { nb_unread_annotations: counts.unread } : {}),
  };
}
