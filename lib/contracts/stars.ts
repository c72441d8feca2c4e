import { z } from "zod";
import { id, isoDate, listResponse, paging } from "./common";
import { fileResponse } from "./files";
import { folderResponse } from "./folders";

/** Starred items (issue 29, our own small API): PUT/DELETE /star/(file|folder)/(id), GET /stars. */
export const starType = z.enum(["file", "folder"]);
export type StarType = z.infer<typeof starType>;
export const starParams = z.object({ type: starType, id });
export const listStarsQuery = z.object({ ...paging });

/** One starred item: a file by its current version's id (the contract's File id), with the object in light mode. */
export const starResponse = z.strictObject({
  type: starType,
  id: z.number().int(),
  name: z.string(),
  /** The folders above it that the caller may browse, from the top (as search results write them). */
  path_crumbs: z.array(z.object({ id: z.number(), name: z.string() })),
  /** When it was starred. */
  date: isoDate,
  object: z.union([fileResponse, folderResponse]),
});
export type StarResponse = z.infer<typeof starResponse>;
export const starsResponse = listResponse(starResponse);
