import { z } from "zod";
import { id, paging } from "@/lib/server/http/schemas";

export const targetType = z.enum(["file", "folder"]);
export type TargetType = z.infer<typeof targetType>;

const annotationText = z.string().trim().min(1).max(10_000);

export const annotationParams = z.object({ annotationId: id });
export const targetParams = z.object({ targetId: id, type: targetType });
export const pagingQuery = z.object({ ...paging });

/** For files `target_id` is the version id the client knows (any version of the file). */
export const createAnnotationBody = z.object({
  target_id: id,
  target_type: targetType,
  text: annotationText,
  conversation: id.nullable().optional(),
});
export const updateAnnotationBody = z.object({ text: annotationText });

/** The contract's Annotation; a file's `target_id` is its current version id. */
export const annotationResponse = z.object({
  id: z.number(),
  target_id: z.number(),
  target_type: targetType,
  owner: z.string(),
  owner_id: z.string(),
  date: z.string(),
  text: z.string(),
  conversation: z.number().nullable(),
});
export type AnnotationResponse = z.infer<typeof annotationResponse>;
