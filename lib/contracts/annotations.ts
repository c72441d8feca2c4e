import { z } from "zod";
import { id, isoDate, listResponse, paging } from "@/lib/contracts/common";

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
export const annotationResponse = z.strictObject({
  id: z.number().int(),
  target_id: z.number().int(),
  target_type: targetType,
  owner: z.string(),
  owner_id: z.string(),
  date: isoDate,
  text: z.string(),
  conversation: z.number().int().nullable(),
});
export type AnnotationResponse = z.infer<typeof annotationResponse>;

/** "1,2,3": at most one page of a listing (the web client's rows). */
const idList = z
  .string()
  .max(12_000)
  .transform((s) => s.split(",").filter(Boolean))
  .pipe(z.array(z.string().regex(/^\d{1,10}$/, "Expected ids separated by commas").transform(Number).pipe(z.number().int().positive().max(2_147_483_647))).max(1000));

/** GET /annotations/counts (beyond the contract, for list views): files by File id, folders by id. */
export const countsQuery = z.object({ files: idList.optional(), folders: idList.optional() });

export const countsResponse = z.object({
  files: z.record(z.string(), z.object({ total: z.number(), unread: z.number() })),
  folders: z.record(z.string(), z.object({ total: z.number(), unread: z.number() })),
});
export type CountsResponse = z.infer<typeof countsResponse>;

/** GET /annotations/(targetId)/(type) and GET /annotations/all: the list envelope around Annotations. */
export const annotationListResponse = listResponse(annotationResponse);
