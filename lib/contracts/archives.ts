import { z } from "zod";
import { flag, id, isoDate, listResponse, paging } from "@/lib/contracts/common";

const bodyId = z.union([z.number(), z.string()]).pipe(z.coerce.number<string | number>().int().positive().max(2_147_483_647));

export const archiveTypeParams = z.object({ id });
export const archiveFileParams = z.object({ fileId: id });
export const archiveFolderParams = z.object({ folderId: id });
export const listArchivesQuery = z.object({ ...paging, type: z.enum(["file", "folder"]).optional() });
/** `download`: the file's original bytes instead of the Archive (api.md). */
export const readArchiveQuery = z.object({ download: flag });

/** PUT /archive/file/(id) and /archive/folder/(id): rename, comment. */
export const updateArchiveBody = z.object({ name: z.string().max(1024).optional(), comment: z.string().max(10_000).optional() });
export type UpdateArchiveInput = z.output<typeof updateArchiveBody>;

/** PUT .../unarchive (api.md): back to its original folder, or `parent_id`. */
export const unarchiveBody = z.object({ parent_id: bodyId.optional() });
export type UnarchiveInput = z.output<typeof unarchiveBody>;

/**
 * The contract's Archive (api.md: id, type, object_id, name, size, date, owner_id, path_name),
 * with its state (pending while its bytes move to the cold tier, archived, restoring), comment,
 * compressed size and counts. `object_id` is the File id (its current version) or the folder id,
 * the same once restored.
 */
export const archiveResponse = z.strictObject({
  id: z.number().int(),
  type: z.enum(["file", "folder"]),
  object_id: z.number().int(),
  name: z.string(),
  size: z.number().int(),
  stored_size: z.number().int(),
  date: isoDate,
  owner_id: z.string(),
  owner: z.string(),
  path_name: z.string(),
  comment: z.string(),
  state: z.enum(["pending", "archived", "restoring"]),
  nb_files: z.number().int(),
  nb_folders: z.number().int(),
});
export type ArchiveResponse = z.infer<typeof archiveResponse>;

/** GET /archives: the list envelope around Archives. */
export const archiveListResponse = listResponse(archiveResponse);
