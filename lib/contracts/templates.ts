import { z } from "zod";
import { flag, id, paging, isoDate, listResponse } from "@/lib/contracts/common";

/** An id sent in a JSON body: number or numeric string. */
const bodyId = z.union([z.number(), z.string()]).pipe(z.coerce.number<string | number>().int().positive().max(2_147_483_647));
/** A folder in a body; 0 stands for the whole platform. */
const placeId = z.union([z.number(), z.string()]).pipe(z.coerce.number<string | number>().int().min(0).max(2_147_483_647));
/** A template's name is the default name of the files made from it: the file-name rules apply (400 invalid_name). */
const templateName = z.string().max(1024);
const description = z.string().max(2000);

export const templateParams = z.object({ templateId: id });
export const templateFolderParams = z.object({ folderId: id });
export const listTemplatesQuery = z.object({ ...paging });

/**
 * POST /template/file (api.md): makes a template of a file the caller may read and download.
 * `parent_id` (beyond api.md) says where it is offered: a folder where the caller may write
 * (default: the file's own folder), or 0 for the whole platform (administrators).
 */
export const createTemplateBody = z.object({ file_id: bodyId, name: templateName.optional(), description: description.optional(), parent_id: placeId.optional() });
export type CreateTemplateInput = z.output<typeof createTemplateBody>;

export const updateTemplateBody = z.object({ name: templateName.optional(), description: description.optional() });
export type UpdateTemplateInput = z.output<typeof updateTemplateBody>;

/** POST /template/file/copy (api.md): a new file from a template; a name taken gets a numbered name. */
export const copyTemplateBody = z.object({ template_id: bodyId, parent_id: bodyId, name: templateName.optional() });
export type CopyTemplateInput = z.output<typeof copyTemplateBody>;
export const copyTemplateQuery = z.object({ full: flag, light: flag });

/** POST /token/template/(id)/(type): `preview` or `download`, read at GET /template/file/(id)/content?token=. */
export const templateTokenType = z.enum(["preview", "download"]);
export const templateContentQuery = z.object({ token: z.string().min(1).max(200).optional() });

/** The contract's File template; `parent_id` 0 is a platform-wide template. */
export const templateResponse = z.object({
  id: z.number().int(),
  guid: z.string(),
  name: z.string(),
  description: z.string(),
  date: isoDate,
  parent_id: z.number().int(),
  size: z.number().int(),
  file_type: z.enum(["image", "document", "video"]).optional(),
  thumb_token: z.string().optional(),
  can_edit: z.boolean(),
});
export type TemplateResponse = z.infer<typeof templateResponse>;
export const templateListResponse = listResponse(templateResponse);
