import { z } from "zod";
import { id } from "@/lib/contracts/common";

/** The most items a selection may name (files and folders together): more is a 400. */
export const ZIP_MAX_SELECTED = 1000;
/** The most entries (files and folders, their subtrees included) one zip may hold: more is a 413. */
export const ZIP_MAX_ENTRIES = 20_000;

const idList = z
  .string()
  .max(12_000)
  .transform((s) => s.split(",").filter(Boolean))
  .pipe(z.array(z.string().regex(/^\d{1,10}$/, "Expected ids separated by commas").transform(Number).pipe(z.number().int().positive().max(2_147_483_647))).max(ZIP_MAX_SELECTED));

/** GET /api/zip/folder/(folderId) (beyond the contract): one folder and its live subtree. */
export const zipFolderParams = z.object({ folderId: id });

/** GET /api/zip?files=1,2&folders=3 (beyond the contract): files by File id (version id), folders by id. */
export const zipSelectionQuery = z
  .object({ files: idList.optional(), folders: idList.optional(), name: z.string().max(200).optional() })
  .refine((q) => (q.files?.length ?? 0) + (q.folders?.length ?? 0) > 0, { message: "Name at least one file or folder" })
  .refine((q) => (q.files?.length ?? 0) + (q.folders?.length ?? 0) <= ZIP_MAX_SELECTED, { message: `At most ${ZIP_MAX_SELECTED} items may be selected` });
export type ZipSelectionQuery = z.infer<typeof zipSelectionQuery>;
