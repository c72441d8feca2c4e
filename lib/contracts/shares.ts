import { z } from "zod";
import { dateInput, id, paging, isoDate, listResponse } from "@/lib/contracts/common";
import { publicGateJson, shareGateFields, shareGateJson } from "./engagement";
import { linkKey, linkPassword, linkPhone } from "./links";

export const shareParams = z.object({ shareId: id });
export const shareKeyParams = z.object({ key: linkKey });
export const shareFolderParams = z.object({ key: linkKey, folderId: id });
export const pagingQuery = z.object({ ...paging });

/** entity_type 0 is a folder (its id), 1 a file (the contract's File id: any version id). */
export const shareRootInput = z.object({ id, entity_type: z.union([z.literal(0), z.literal(1)]) });
export type ShareRootInput = z.infer<typeof shareRootInput>;

// A link's name is read back by its owner and its visitors: one line, no direction overrides.
const shareName = z
  .string()
  .trim()
  .max(255)
  .refine((s) => !/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/.test(s), "Control and bidirectional characters are not allowed");

const shareFields = {
  flags: z.number().int().min(0).max(255).optional(),
  // A past date is allowed: it ends the link now (update-share.ts).
  expiration_date: dateInput.nullable().optional(),
  name: shareName.nullable().optional(),
  password: linkPassword.nullable().optional(),
  phone: linkPhone.nullable().optional(),
  // The engagement gate (api.md, "Document engagement on link shares").
  ...shareGateFields,
};

export const createShareBody = z.object({ roots: z.array(shareRootInput).min(1).max(1000), ...shareFields });
export type CreateShareInput = z.infer<typeof createShareBody>;

export const updateShareBody = z.object({ roots: z.array(shareRootInput).min(1).max(1000).optional(), ...shareFields });
export type UpdateShareInput = z.infer<typeof updateShareBody>;

/** The contract's Share content. */
export const shareContent = z.object({
  id: z.number().int(),
  entity_type: z.union([z.literal(0), z.literal(1)]),
  share_id: z.number().int(),
  name: z.string(),
  guid: z.string().optional(),
  extension: z.string().optional(),
  file_type: z.string().optional(),
  mime: z.string().optional(),
  lock: z.unknown().optional(),
  size: z.number().int(),
  parent_id: z.number().int(),
  is_file: z.boolean(),
  can_download: z.boolean(),
  can_preview: z.boolean(),
  can_edit: z.boolean(),
});
export type ShareContentJson = z.infer<typeof shareContent>;

/** The contract's Link share (current), as its owner sees it. */
export const shareResponse = z.object({
  id: z.number().int(),
  key: z.string(),
  url: z.string(),
  roots: z.array(shareContent),
  flags: z.number().int(),
  expiration_date: isoDate.nullable(),
  creation_date: isoDate,
  name: z.string().nullable(),
  owner: z.string(),
  owner_id: z.number().int(),
  password_protected: z.boolean(),
  phone: z.string().nullable(),
  is_valid: z.boolean(),
  consumed_date: isoDate.nullable(),
  /** The engagement gate: zeros and empties when the link has none. */
  gate: shareGateJson,
});
export type ShareResponse = z.infer<typeof shareResponse>;

/** A share as a visitor sees it at /share/key/(key): no roots nor names before the password. */
export const publicShareResponse = z.object({
  key: z.string(),
  name: z.string().nullable(),
  flags: z.number().int(),
  expiration_date: isoDate.nullable(),
  owner: z.string(),
  needs_password: z.boolean(),
  needs_code: z.boolean(),
  unlocked: z.boolean(),
  can_download: z.boolean(),
  can_preview: z.boolean(),
  can_edit: z.boolean(),
  roots: z.array(shareContent).optional(),
  /** What the link's gate asks of its visitor, and who the access token sent stands for. */
  gate: publicGateJson,
});

/** Link-share token routes. */
export const guidTokenParams = z.object({ key: linkKey, guid: z.string().uuid(), type: z.enum(["preview", "edit", "download"]) });
export const dataTokenParams = z.object({ key: linkKey, dataId: id, type: z.enum(["preview", "video"]) });
export const templateTokenParams = z.object({ id, type: z.string().min(1).max(40) });
export const shareListResponse = listResponse(shareResponse);
/** GET /share/content/(key)[/(folderId)]: a page of Share content, and where the visitor is (null at the share's roots; parent_id 0 at a shared folder). */
export const shareContentListResponse = listResponse(shareContent).extend({
  folder: z.object({ id: z.number().int(), name: z.string(), parent_id: z.number().int() }).nullable(),
});

/** `GET /share/(id)/activity`: the accesses through the link, a page of them in the list envelope, and totals. */
export const shareActivityResponse = listResponse(
  z.object({
    id: z.number().int(),
    date: isoDate,
    kind: z.string(),
    file: z.number().int().nullable(),
    file_name: z.string().nullable(),
    visitor: z.string(),
    env: z.unknown(),
    geo: z.unknown(),
  }),
).extend({
  downloads: z.number().int(),
  previews: z.number().int(),
  visits: z.number().int(),
  refused: z.number().int(),
  users: z.number().int(),
  last_access: isoDate.nullable(),
});
