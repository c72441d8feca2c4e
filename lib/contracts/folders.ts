import { z } from "zod";
import { dateInput, flag, id, isoDate } from "@/lib/contracts/common";
import { fileResponse, type FileResponse } from "./files";
import { tagIdList } from "./tags";

/** Values of folder search's `types`. */
export const FILE_TYPE_FILTERS = ["document", "spreadsheet", "presentation", "pdf", "image", "video", "audio", "text", "archive"] as const;
export type FileTypeFilter = (typeof FILE_TYPE_FILTERS)[number];

export const folderParams = z.object({ folderId: id });

const modeFlags = { full: flag, light: flag };
const bytes = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** A 0/1 switch of the search (the contract writes them as 0 or 1, default 0); flags' spellings are accepted too. */
const searchSwitch = flag;
export const LISTING_ORDERS = ["name", "size", "modification", "owner"] as const;
export type ListingOrder = (typeof LISTING_ORDERS)[number];

/**
 * Read folder, root lists and spaces. `depth` counts the levels below the first one that also get
 * their `content` (0 = the folder and its direct children, -1 = the whole tree). `offset_start` /
 * `nb_objects` page the first level only and are off unless one of them is given.
 */
export const readFolderQuery = z.object({
  ...modeFlags,
  depth: z.coerce.number().int().min(-1).max(10_000).default(0),
  filter: z.coerce.number().int().min(1).max(3).default(3),
  offset_start: z.coerce.number().int().min(0).optional(),
  nb_objects: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .transform((n) => (n === undefined ? n : Math.min(n, 1000))),
  recursive: flag,
  /** Web search syntax (quotes, -word, or); NUL cannot be searched for (PostgreSQL text holds none): 400. */
  search_label: z
    .string()
    .max(1000)
    .refine((s) => !s.includes("\u0000"), "NUL is not allowed")
    .optional(),
  in_name: searchSwitch,
  in_annotations: searchSwitch,
  in_content: searchSwitch,
  global: searchSwitch,
  creation_start: dateInput.optional(),
  creation_end: dateInput.optional(),
  modification_start: dateInput.optional(),
  modification_end: dateInput.optional(),
  size_start: bytes.optional(),
  size_end: bytes.optional(),
  /** Tag ids, comma-separated: every one must be on a match (api.md). */
  tags: tagIdList.optional(),
  /** Kinds of files, comma-separated: a file of any of them matches; folders do not (api.md). */
  types: z
    .string()
    .max(200)
    .transform((s) => s.split(",").map((p) => p.trim()).filter(Boolean))
    .pipe(z.array(z.enum(FILE_TYPE_FILTERS)).min(1).max(FILE_TYPE_FILTERS.length))
    .optional(),
  /** Only what this user owns (the `owner_id` the results show). */
  owner_id: id.optional(),
  /** Our own (the contract names none): the column a listing's or a search's lists are ordered by, folders first. */
  order: z.enum(LISTING_ORDERS).optional(),
  direction: z.enum(["asc", "desc"]).optional(),
});
export type ReadFolderQuery = z.output<typeof readFolderQuery>;

export const folderName = z.string().max(1000);
/** 0 = unlimited, -1 = inherit from the parent, otherwise bytes. */
export const folderQuota = z.number().int().min(-1).max(Number.MAX_SAFE_INTEGER);
export const purgeFrequency = z.number().int().min(0).max(100_000);

export const createFolderQuery = z.object({ ...modeFlags, copy: id.optional() });
/** `name` may be omitted only when copying (the copy keeps the source's name). */
export const createFolderBody = z.object({
  name: folderName.optional(),
  parent_id: z.coerce.number().int().min(0).max(2_147_483_647),
  quota: folderQuota.optional(),
  purge_frequency: purgeFrequency.optional(),
});
export type CreateFolderBody = z.output<typeof createFolderBody>;

export const updateFolderQuery = z.object({ ...modeFlags, recursive: flag });
export const updateFolderBody = z.object({
  name: folderName.optional(),
  parent_id: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
  quota: folderQuota.optional(),
  purge_frequency: purgeFrequency.optional(),
});
export type UpdateFolderBody = z.output<typeof updateFolderBody>;

/** `trash`: 1 (default) sends to the trash, 0 deletes for good. */
export const deleteFolderQuery = z.object({
  trash: z
    .enum(["0", "1", "true", "false", ""])
    .optional()
    .transform((v) => v !== "0" && v !== "false"),
});

export const rootTypeParams = z.object({ type: z.enum(["private", "company", "shared"]) });
export const portalParams = z.object({ filter: z.enum(["me", "shared", "all"]) });

export const objectPathQuery = z.object({ ...modeFlags, object: z.string().min(1).max(65_536) });

export const quotasQuery = z.object({ folder_id: id.optional() });

const quotaPair = z.object({ quota: z.number().nullable(), used: z.number() });
export const quotasResponse = z.object({
  platform: quotaPair,
  user: quotaPair,
  folder: z.object({ quota: z.number().nullable(), used: z.number(), folder: z.number().nullable() }).nullable(),
});
export const userQuotaResponse = quotaPair;

export const rootResponse = z.object({ id: z.number(), name: z.string(), type: z.enum(["private", "company"]) });

const canFields = {
  can_read: z.boolean(),
  can_download: z.boolean(),
  can_write: z.boolean(),
  can_edit: z.boolean(),
  can_delete: z.boolean(),
  can_share: z.boolean(),
};

/** The Folder record; mode rules: light drops creation/modification/owner, full adds the rest. */
export type FolderResponse = z.infer<typeof folderBase> & {
  content?: { files: FileResponse[]; folders: FolderResponse[] };
};
export const folderBase = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  parent_id: z.number().int(),
  ...canFields,
  creation: isoDate.nullable().optional(),
  modification: isoDate.nullable().optional(),
  owner: z.string().optional(),
  owner_id: z.string().optional(),
  can_dlink: z.boolean().optional(),
  can_ulink: z.boolean().optional(),
  can_admin_rights: z.boolean().optional(),
  can_admin_alerts: z.boolean().optional(),
  self_alert: z.boolean().optional(),
  shared: z.boolean().optional(),
  size: z.number().int().optional(),
  nb_d_folders: z.number().int().optional(),
  nb_d_files: z.number().int().optional(),
  nb_folders: z.number().int().optional(),
  nb_files: z.number().int().optional(),
  quota: z.number().int().optional(),
  purge_frequency: z.number().int().optional(),
  path: z.string().optional(),
  path_name: z.string().optional(),
  /** Search results: the folders of path_name with their ids, to link each (our extension). */
  path_crumbs: z.array(z.object({ id: z.number(), name: z.string() })).optional(),
  /** Full mode, when the caller sees annotations on the folder (unread: not read by the caller yet). */
  nb_annotations: z.number().int().positive().optional(),
  nb_unread_annotations: z.number().int().optional(),
  /** Our extension: items of the first level when it was paged. */
  content_total: z.number().int().optional(),
});
export const folderResponse: z.ZodType<FolderResponse> = folderBase.extend({
  content: z
    .object({
      files: z.array(fileResponse),
      folders: z.array(z.lazy(() => folderResponse)),
    })
    .optional(),
});


/** GET /folder/(id)?recursive=1 (search, api.md): the folders and files found, each with its place. */
export const folderSearchResponse = z.object({ folders: z.array(folderResponse), files: z.array(fileResponse) });
/** GET /folder/(id) and GET /root/(type): the Folder, or with `recursive` the search results. */
export const readFolderResponse = z.union([folderResponse, folderSearchResponse]);
/** GET /folders, GET /root/portal/(filter): Folders (the roots or spaces, with content to `depth`). */
export const folderListResponse = z.array(folderResponse);
/** GET /roots: the private space and the company folders. */
export const rootsResponse = z.array(rootResponse);
/** GET /objectpath: the File or the Folder at that path. */
export const objectPathResponse = z.object({ object: z.union([fileResponse, folderResponse]) });
