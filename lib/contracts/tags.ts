import { z } from "zod";
import { flag, id, isoDate, listResponse, paging } from "@/lib/contracts/common";

export const tagElementType = z.enum(["file", "folder"]);
export type TagElementType = z.infer<typeof tagElementType>;

/** A tag or category name: 1 to 100 characters once trimmed; control and format characters are refused by the services. */
const tagName = z.string().trim().min(1).max(100);
/** `#rrggbb` (lower-cased). */
const hexColor = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, "A colour as # and six hexadecimal digits")
  .transform((c) => c.toLowerCase());
/** A JSON boolean, or 0/1 and their strings. */
const bodyBool = z.union([z.boolean(), z.literal(0), z.literal(1), z.enum(["0", "1", "true", "false"])]).transform((v) => v === true || v === 1 || v === "1" || v === "true");
const optionalId = z.union([id, z.null()]).optional();

/** "1,2,3": tag ids (folder search's `tags`, all must match). */
export const tagIdList = z
  .string()
  .max(2000)
  .transform((s) => s.split(",").map((p) => p.trim()).filter(Boolean))
  .pipe(z.array(z.string().regex(/^\d{1,10}$/, "Expected tag ids separated by commas").transform(Number).pipe(z.number().int().positive().max(2_147_483_647))).min(1).max(50));

export const tagParams = z.object({ tagId: id });
export const categoryParams = z.object({ categoryId: id });
export const tagElementParams = z.object({ tagId: id, elementId: id, type: tagElementType });
export const elementParams = z.object({ elementId: id, type: tagElementType });

/** POST /tag (api.md): `private` tags are seen by their owner alone. */
export const createTagBody = z.object({ name: tagName, category_id: optionalId, private: bodyBool.optional() });
export type CreateTagInput = z.output<typeof createTagBody>;
/** PUT /tag/(id): rename, or move to another category (`null`: none). */
export const updateTagBody = z.object({ name: tagName.optional(), category_id: optionalId });
export type UpdateTagInput = z.output<typeof updateTagBody>;

export const listTagsQuery = z.object({
  ...paging,
  category_id: id.optional(),
  /** Tags whose name contains this (case-insensitive). */
  search: z.string().max(100).optional(),
});
export type ListTagsQuery = z.output<typeof listTagsQuery>;

export const createCategoryBody = z.object({ name: tagName, color: hexColor.optional() });
export type CreateCategoryInput = z.output<typeof createCategoryBody>;
export const updateCategoryBody = z.object({ name: tagName.optional(), color: hexColor.optional() });
export type UpdateCategoryInput = z.output<typeof updateCategoryBody>;
/** `full`: each category with its tags. */
export const listCategoriesQuery = z.object({ ...paging, full: flag });

/** "1,2,3": one page of a listing (the web client's rows). */
const idList = z
  .string()
  .max(12_000)
  .transform((s) => s.split(",").filter(Boolean))
  .pipe(z.array(z.string().regex(/^\d{1,10}$/, "Expected ids separated by commas").transform(Number).pipe(z.number().int().positive().max(2_147_483_647))).max(1000));
/** GET /tags/listed (beyond the contract, for list views): files by File id, folders by id. */
export const listedTagsQuery = z.object({ files: idList.optional(), folders: idList.optional() });

/** The contract's Tag. `color` is its category's; `key` the name's search form. */
export const tagResponse = z.object({
  id: z.number(),
  category_id: z.number().nullable(),
  name: z.string(),
  key: z.string(),
  color: z.string(),
  owner_id: z.string(),
  private: z.boolean(),
});
export type TagResponse = z.infer<typeof tagResponse>;

/** The contract's Tag category: `color` is set, the three shades are derived from it. */
export const categoryResponse = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  primary_color: z.string(),
  secondary_color: z.string(),
  tertiary_color: z.string(),
  nb_tags: z.number(),
  tags: z.array(tagResponse).optional(),
});
export type CategoryResponse = z.infer<typeof categoryResponse>;

/**
 * The contract's Tag activity (api.md types: 1 created, 2 renamed, 3 attached, 4 detached,
 * 5 deleted). Attach and detach name the element only to a caller who may browse it.
 */
export const tagActivityResponse = z.object({
  id: z.number(),
  tag_id: z.number(),
  type: z.number(),
  date: isoDate,
  owner_id: z.string(),
  owner: z.string(),
  element_type: tagElementType.optional(),
  element_id: z.number().optional(),
  element_name: z.string().optional(),
  old_name: z.string().optional(),
  name: z.string().optional(),
});
export type TagActivityResponse = z.infer<typeof tagActivityResponse>;

export const listedTagsResponse = z.object({
  files: z.record(z.string(), z.array(tagResponse)),
  folders: z.record(z.string(), z.array(tagResponse)),
});
export type ListedTagsResponse = z.infer<typeof listedTagsResponse>;
export const tagListResponse = listResponse(tagResponse);
export const categoryListResponse = listResponse(categoryResponse);
export const tagActivityListResponse = listResponse(tagActivityResponse);
