import { z } from "zod";

/**
 * GET /account/storage (our own, issue 29): the caller's bytes against their quota, as
 * GET /user/(id)/quota counts them (every version they created), and the folders holding most
 * of those bytes among the folders they may still browse.
 */
export const ownStorageResponse = z.object({
  quota: z.number().nullable(),
  used: z.number(),
  folders: z.array(z.object({ id: z.number(), name: z.string(), size: z.number() })),
});
export type OwnStorage = z.infer<typeof ownStorageResponse>;

/** How many folders the usage card lists. */
export const LARGEST_FOLDERS = 5;
