import { z } from "zod";
import { dateInput, flag, id, paging, isoDate, listResponse } from "@/lib/contracts/common";
import { linkKey, linkPassword, linkPhone } from "./links";

/** Drop-link flags: 4 = deposit receipt mailed to the owner. 16 and 32 mirror a password and a phone. */
export const ULINK_FLAG = { receipt: 4, password: 16, sms: 32 } as const;

const linkName = z.string().trim().max(255);
/** A body boolean: JSON booleans, 0/1 and their strings (flag() of schemas.ts). */
const bool = flag;

/** Whether a visitor gives their name and email with a deposit (ours, issue 29): not asked, asked, or needed. */
export const depositorOption = z.enum(["none", "optional", "required"]);
export type DepositorOption = z.infer<typeof depositorOption>;

/** One line a person reads back to the owner: no control, bidirectional or invisible direction marks. */
const depositorText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((s) => !/[\p{Cc}\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u.test(s), "No control or bidirectional characters");

/**
 * The deposit form's parts `depositorName` and `depositorEmail` (beside `targetFile`), checked on
 * the server whatever the page did. Empty parts count as absent.
 */
export const depositorFields = z.object({
  depositorName: depositorText(200).optional().transform((v) => v || undefined),
  depositorEmail: depositorText(254)
    .optional()
    .transform((v) => v || undefined)
    .pipe(z.email().optional()),
});
export type DepositorFields = z.output<typeof depositorFields>;

export const ulinkParams = z.object({ ulinkId: id });
export const ulinkKeyParams = z.object({ key: linkKey });
export const pagingQuery = z.object({ ...paging });

/**
 * POST /ulink (api.md). `alert` and flag 4 both ask for the receipt; `password` protects the
 * link (flag 16), `phone` sends an SMS code before any deposit (flag 32); `depositor` (ours, issue 29)
 * asks visitors for their name and email: "none" (default), "optional" or "required".
 */
export const createUlinkBody = z.object({
  folder_id: id,
  flags: z.coerce.number().int().min(0).max(255).optional(),
  expiration_date: dateInput.nullable().optional(),
  name: linkName.nullable().optional(),
  password: linkPassword.nullable().optional(),
  phone: linkPhone.nullable().optional(),
  alert: bool,
  depositor: depositorOption.optional(),
});
export type CreateUlinkInput = z.output<typeof createUlinkBody>;

/** PUT /ulink/(id): partial; `password: null` or `phone: null` removes that protection. */
export const updateUlinkBody = z.object({
  folder_id: id.optional(),
  flags: z.coerce.number().int().min(0).max(255).optional(),
  expiration_date: dateInput.nullable().optional(),
  name: linkName.nullable().optional(),
  password: linkPassword.nullable().optional(),
  phone: linkPhone.nullable().optional(),
  alert: z.union([z.boolean(), z.enum(["1", "true", "0", "false"])]).optional().transform((v) => (v === undefined ? undefined : v === true || v === "1" || v === "true")),
  depositor: depositorOption.optional(),
});
export type UpdateUlinkInput = z.output<typeof updateUlinkBody>;

/** The contract's Drop link; `folder` and `folder_size` only for its owner. */
export const ulinkResponse = z.object({
  id: z.number().int(),
  key: z.string(),
  folder: z.string().nullable().optional(),
  folder_id: z.number().int().nullable(),
  folder_size: z.number().int().optional(),
  is_valid: z.boolean(),
  expiration_date: isoDate.nullable(),
  creation_date: isoDate,
  owner: z.string(),
  owner_id: z.string(),
  url: z.string(),
  flags: z.number().int(),
  name: z.string().nullable(),
  alert: z.boolean(),
  password_protected: z.boolean(),
  phone: z.string().nullable().optional(),
  nb_deposits: z.number().int().optional(),
  depositor: depositorOption,
});
export type UlinkResponse = z.infer<typeof ulinkResponse>;

/** GET /ulink/key/(key): what a visitor may know before depositing; never the folder nor its content. */
export const publicUlinkResponse = z.object({
  key: z.string(),
  name: z.string().nullable(),
  owner: z.string(),
  expiration_date: isoDate.nullable(),
  is_valid: z.boolean(),
  password_required: z.boolean(),
  code_required: z.boolean(),
  depositor: depositorOption,
});
export type PublicUlinkResponse = z.infer<typeof publicUlinkResponse>;

/** The answer to a complete deposit: what was received, not the name it got (a numbered name tells what the folder holds). */
export const depositResponse = z.object({ size: z.number().int(), hash: z.string() });

/**
 * GET /ulink/(id)/deposits: the link's deposits grouped by who said they made them (same name and
 * email, the email case-insensitively), newest group first; deposits with no depositor form one
 * group with `name` and `email` null. `date` is the group's latest deposit.
 */
export const depositorGroupResponse = z.object({
  name: z.string().nullable(),
  email: z.string().nullable(),
  date: isoDate,
  files: z.array(z.object({ id: z.number().int().nullable(), name: z.string(), size: z.number().int(), date: isoDate })),
});
export type DepositorGroup = z.infer<typeof depositorGroupResponse>;
export const depositorGroupListResponse = listResponse(depositorGroupResponse);

// Drop links by email

const recipient = z.object({
  email: z.email().max(320),
  id: z.union([z.string(), z.number()]).optional(),
  phone: linkPhone.optional(),
});

export const ulinkEmailParams = z.object({ ulinkEmailId: id });

/** POST /ulink/email: each recipient gets a drop link of their own (its own key) by mail. */
export const createUlinkEmailBody = z.object({
  folder_id: id,
  object: z.string().trim().max(255).refine((s) => !/[\r\n]/.test(s), "A subject is one line").default(""),
  content: z.string().max(100_000).default(""),
  recipients: z.array(recipient).min(1).max(100),
  alert: bool,
  expiration_date: dateInput.nullable().optional(),
  password: linkPassword.nullable().optional(),
});
export type CreateUlinkEmailInput = z.output<typeof createUlinkEmailBody>;

/** PUT /ulink/email/(id): the message (for the record, not resent) and the links' settings. */
export const updateUlinkEmailBody = z.object({
  object: z.string().trim().max(255).refine((s) => !/[\r\n]/.test(s), "A subject is one line").optional(),
  content: z.string().max(100_000).optional(),
  alert: updateUlinkBody.shape.alert,
  expiration_date: dateInput.nullable().optional(),
});
export type UpdateUlinkEmailInput = z.output<typeof updateUlinkEmailBody>;

/** The contract's Drop link by email; each recipient with their own link. */
export const ulinkEmailResponse = z.object({
  id: z.number().int(),
  object: z.string(),
  content: z.string(),
  owner_id: z.string(),
  ulink_id: z.number().int().nullable(),
  creation_date: isoDate,
  folder: z.string().nullable(),
  folder_id: z.number().int().nullable(),
  folder_size: z.number().int(),
  alert: z.boolean(),
  expiration_date: isoDate.nullable(),
  recipients: z.array(z.object({ email: z.string(), ulink_id: z.number().int(), url: z.string(), nb_deposits: z.number().int() })),
});
export type UlinkEmailResponse = z.infer<typeof ulinkEmailResponse>;
export const ulinkListResponse = listResponse(ulinkResponse);
export const ulinkEmailListResponse = listResponse(ulinkEmailResponse);

/** POST /ulink/key/(key)/upload: 201 the complete deposit; 200 the chunks still missing when asked for a report ("OK", not JSON, otherwise). */
export const depositAnswers = { 201: depositResponse, 200: z.array(z.object({ missing: z.number().int() })) };
