import { z } from "zod";
import { flag, id, isoDate, listResponse, paging } from "@/lib/contracts/common";
import { lockResponse } from "./locks";
import { fileWorkflowResponse } from "./workflows";

/** A file name as sent; the services apply the name rules (400 invalid_name). */
const fileName = z.string().max(1024);
/** An id sent in a JSON body or a form: number or numeric string. */
const bodyId = z.union([z.number(), z.string()]).pipe(z.coerce.number<string | number>().int().positive().max(2_147_483_647));
const modeFlags = { full: flag, light: flag };

export const fileParams = z.object({ fileId: id });

export const readFileQuery = z.object({ meta: flag, latest: flag, ...modeFlags });
export const listVersionsQuery = z.object({ ...modeFlags });
export const fileActivityQuery = z.object({ all: flag, ...paging, ...modeFlags });

/** POST /file: `copy` is the id (a version) of the file to copy. */
export const createFileQuery = z.object({ copy: id.optional(), ...modeFlags });
export const createFileBody = z.object({
  name: fileName,
  /** Files live in folders: a missing parent means the caller's private space. */
  parent_id: bodyId.optional(),
  hash: z
    .string()
    .regex(/^[0-9a-fA-F]{32}$/, "An MD5 of 32 hexadecimal characters")
    .transform((h) => h.toLowerCase())
    .optional(),
});
export type CreateFileBody = z.infer<typeof createFileBody>;

export const updateFileQuery = z.object({ ...modeFlags });
export const updateFileBody = z.object({ name: fileName.optional(), parent_id: bodyId.optional() });
export type UpdateFileBody = z.infer<typeof updateFileBody>;

/** `trash` defaults to 1 (unlike the other flags, its absence means on). */
const trashFlag = z
  .union([z.boolean(), z.enum(["", "1", "true", "0", "false"])])
  .optional()
  .transform((v) => v === undefined || v === true || v === "" || v === "1" || v === "true");

export const deleteFileQuery = z.object({ trash: trashFlag, versions: z.enum(["all", "none", "previous"]).default("all") });
export type DeleteFileQuery = z.infer<typeof deleteFileQuery>;

export const cancelUploadBody = z.object({ folderId: bodyId, filename: fileName.min(1) });
export type CancelUploadBody = z.infer<typeof cancelUploadBody>;

export const fileTokenParams = z.object({ fileId: id, type: z.enum(["preview", "edit", "download"]) });
export type FileTokenType = z.infer<typeof fileTokenParams>["type"];
export const fileTokenResponse = z.object({ token: z.string() });

/** The contract's File (one record per version); mode-dependent fields are optional. */
export const fileResponse = z.strictObject({
  id: z.number().int(),
  guid: z.string(),
  name: z.string(),
  parent_id: z.number().int(),
  size: z.number().int(),
  creation: isoDate.optional(),
  modification: isoDate.nullable(),
  can_download: z.boolean(),
  can_write: z.boolean(),
  can_edit: z.boolean(),
  can_delete: z.boolean(),
  can_share: z.boolean(),
  owner: z.string().optional(),
  owner_id: z.string().optional(),
  hash: z.string(),
  lock: lockResponse.nullable(),
  nb_versions: z.number().int().min(2).optional(),
  /** Full mode, when the caller sees annotations on the file (unread: not read by the caller yet). */
  nb_annotations: z.number().int().positive().optional(),
  nb_unread_annotations: z.number().int().optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
  path: z.string().optional(),
  /** Search results: the names of the folders above the file the caller may browse (api.md). */
  path_name: z.string().optional(),
  /** Search results: the folders of path_name with their ids, to link each (our extension). */
  path_crumbs: z.array(z.object({ id: z.number(), name: z.string() })).optional(),
  /** Search results, files found by their content (api.md): plain text, highlight offsets into it, page. */
  content_match: z
    .object({ snippet: z.string(), highlights: z.array(z.tuple([z.number(), z.number()])), page: z.number().nullable() })
    .optional(),
  mime: z.string().optional(),
  /** Full mode, when a thumbnail exists or is being made: a signed token for GET /mixer/(id)?token=. */
  thumb_token: z.string().optional(),
  file_type: z.enum(["image", "document", "video"]).optional(),
  /** Full mode, while a workflow instance holds the file (api.md, "Workflow instances"). */
  workflow: fileWorkflowResponse.optional(),
});
export type FileResponse = z.infer<typeof fileResponse>;

/** GET /file/(id)/versions: each live version of the file as a File, newest first. */
export const fileVersionsResponse = z.array(fileResponse);
/** GET /file/activity: the list envelope around Files. */
export const fileActivityResponse = listResponse(fileResponse);
