import { z } from "zod";
import { flag, id, isoDate, listResponse, paging } from "@/lib/contracts/common";

export const lockParams = z.object({ fileId: id });
/** GET /locks and GET /locks/(folderId): the folder is optional. */
export const listLocksParams = z.object({ folderId: id.optional() });
export const listLocksQuery = z.object({ ...paging });
/** `all`: every version; locks are per file here, so it changes nothing but is accepted. */
export const unlockQuery = z.object({ all: flag });

/**
 * The contract's Lock (api.md: `file` is the numeric id of the current version, `file_guid` the
 * GUID). An unlocked file answers locked false without owner, owner_id and date.
 */
export const lockResponse = z.strictObject({
  file: z.number().int(),
  file_guid: z.string(),
  owner: z.string().optional(),
  owner_id: z.string().optional(),
  locked: z.boolean(),
  writeable: z.boolean(),
  readable: z.boolean(),
  date: isoDate.nullable().optional(),
});
export type LockResponse = z.infer<typeof lockResponse>;

/** GET /locks and GET /locks/(folderId): the list envelope around Locks. */
export const lockListResponse = listResponse(lockResponse);
