import { z } from "zod";
import { id, isoDate, principalId } from "@/lib/contracts/common";
import { fileResponse } from "./files";
import { folderResponse } from "./folders";

export const trashParams = z.object({ trashId: id });

/** GET /trashes: `user_id` (administrators) reads another user's trash. */
export const listTrashQuery = z.object({ user_id: principalId.optional() });

/** DELETE /trashes: `user_id` a user id, or `all` for every user's trash (administrators). */
export const emptyTrashQuery = z.object({ user_id: z.union([z.literal("all"), principalId]).optional() });

/** PUT /trash/(id): `folder_id` 0 means the top level (folders, administrators). */
export const restoreTrashBody = z.object({
  folder_id: z.union([z.number(), z.string()]).pipe(z.coerce.number<string | number>().int().min(0).max(2_147_483_647)).optional(),
});
export type RestoreTrashBody = z.infer<typeof restoreTrashBody>;

/**
 * The contract's Trash item, plus two extensions: `parent_id` (the folder it came from, 0 for the
 * top level) and `path_name` (the names of that place, limited to what the caller may browse).
 */
export const trashItemResponse = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  is_file: z.boolean(),
  deletion: isoDate,
  modification: isoDate.nullable(),
  owner: z.string(),
  owner_id: z.string(),
  size: z.number().int(),
  nb_folders: z.number().int().optional(),
  nb_files: z.number().int().optional(),
  parent_id: z.number().int(),
  path_name: z.string(),
});
export type TrashItemResponse = z.infer<typeof trashItemResponse>;

export const trashListResponse = z.object({ folders: z.array(trashItemResponse), files: z.array(trashItemResponse) });

/** PUT /trash/(trashId): the restored File or Folder. */
export const restoredResponse = z.union([fileResponse, folderResponse]);
