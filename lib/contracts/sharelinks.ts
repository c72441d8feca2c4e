import { z } from "zod";
import { dateInput, id, paging, isoDate, listResponse } from "@/lib/contracts/common";
import { linkKey, linkPassword, linkPhone } from "./links";
import { shareContent } from "./shares";

/** A File id as older clients send it: a number, a numeric string or `{id}`. */
const fileRef = z.union([id, z.object({ id }).transform((f) => f.id)]);
/** A body boolean: JSON booleans, 0/1 and their strings. */
const bool = z.union([z.boolean(), z.enum(["", "1", "true", "0", "false"]), z.literal(0), z.literal(1)]).optional().transform((v) => (v === undefined ? undefined : v === true || v === 1 || v === "" || v === "1" || v === "true"));

export const sharelinkParams = z.object({ sharelinkId: id });
export const sharelinkKeyParams = z.object({ key: linkKey });
export const pagingQuery = z.object({ ...paging });

const legacyFields = {
  expiration_date: dateInput.nullable().optional(),
  password: linkPassword.nullable().optional(),
  phone: linkPhone.nullable().optional(),
  /** 1 maps onto single download (flag 128); other values are kept and reported, not enforced. */
  max_downloads: z.coerce.number().int().min(0).max(1_000_000).nullable().optional(),
  notify: bool,
  autoupdate: bool,
  only_preview: bool,
  force_dl: bool,
  /** 1: protected by a code sent by SMS (flag 32; needs `phone`). */
  type: z.union([z.literal(0), z.literal(1), z.literal(""), z.literal("0"), z.literal("1")]).nullable().optional().transform((v) => (v === undefined ? undefined : Number(v || 0))),
  name: z.string().trim().max(255).nullable().optional(),
};

/** POST /sharelink: the legacy form of a link share, on files (`files`, or one `file_id`). */
export const createSharelinkBody = z
  .object({ files: z.array(fileRef).min(1).max(1000).optional(), file_id: fileRef.optional(), ...legacyFields })
  .refine((b) => b.files !== undefined || b.file_id !== undefined, { message: "files (or file_id) is required", path: ["files"] });
export type CreateSharelinkInput = z.output<typeof createSharelinkBody>;

/** PUT /sharelink/(id): partial. */
export const updateSharelinkBody = z.object({ files: z.array(fileRef).min(1).max(1000).optional(), ...legacyFields });
export type UpdateSharelinkInput = z.output<typeof updateSharelinkBody>;

/** The options of the legacy form that current shares have no column for (shares.legacy). */
export type LegacyOptions = { max_downloads?: number | null; autoupdate?: boolean; force_dl?: boolean };

/** The contract's Link share (legacy, obsolete); the owner-only fields are absent for visitors. */
export const sharelinkResponse = z.object({
  id: z.number().int(),
  key: z.string(),
  url: z.string(),
  files: z.array(shareContent),
  is_valid: z.boolean(),
  expiration_date: isoDate.nullable(),
  password_protected: z.string().nullable(),
  remaining_downloads: z.number().int().nullable(),
  owner: z.string(),
  owner_id: z.number().int(),
  autoupdate: z.boolean(),
  only_preview: z.boolean(),
  type: z.number().int().nullable(),
  force_dl: z.boolean(),
  nb_downloads: z.number().int().optional(),
  max_downloads: z.number().int().nullable().optional(),
  notify: z.boolean().optional(),
  stats: z
    .object({
      downloads: z.array(z.object({ id: z.number().int(), date: isoDate, user: z.string(), user_id: z.string().nullable(), geo: z.unknown(), env: z.unknown() })),
      users: z.number().int(),
    })
    .optional(),
});
export type SharelinkResponse = z.infer<typeof sharelinkResponse>;
export const sharelinkListResponse = listResponse(sharelinkResponse);
