import { z } from "zod";
import { flag, id, principalId } from "@/lib/contracts/common";

export const rightParams = z.object({ rightId: id });
export const rightsListParams = z.object({ folderId: id });
/** `recursive`: also apply the change to every subfolder of the right's folder. */
export const recursiveQuery = z.object({ recursive: flag });

const flags = {
  browse: z.boolean(),
  read: z.boolean(),
  download: z.boolean(),
  write: z.boolean(),
  edit: z.boolean(),
  delete: z.boolean(),
  share: z.boolean(),
};

/** Omitted flags are false (contract). */
export const createRightBody = z.object({
  folder_id: z.coerce.number().int().positive().max(2_147_483_647),
  target_id: principalId,
  browse: flags.browse.default(false),
  read: flags.read.default(false),
  download: flags.download.default(false),
  write: flags.write.default(false),
  edit: flags.edit.default(false),
  delete: flags.delete.default(false),
  share: flags.share.default(false),
});
export type CreateRightBody = z.output<typeof createRightBody>;

/** A partial set of flags; other fields of a Right read back by a client are ignored. */
export const updateRightBody = z.object({
  browse: flags.browse.optional(),
  read: flags.read.optional(),
  download: flags.download.optional(),
  write: flags.write.optional(),
  edit: flags.edit.optional(),
  delete: flags.delete.optional(),
  share: flags.share.optional(),
});
export type UpdateRightBody = z.output<typeof updateRightBody>;

/** api.md: `target_isgroup` true means the target is a group. */
export const rightResponse = z.object({
  id: z.number().int(),
  folder_id: z.number().int(),
  target_id: z.string(),
  target: z.string(),
  target_isgroup: z.boolean(),
  ...flags,
});
export type RightResponse = z.infer<typeof rightResponse>;

/** GET /rights/(folderId): the rights set on the folder (Right[], no envelope). */
export const rightsListResponse = z.array(rightResponse);
