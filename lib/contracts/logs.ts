import { z } from "zod";
import { dateInput, id, isoDate, listResponse, paging } from "@/lib/contracts/common";

/** `user_id` of entries written by an unauthenticated caller (the contract's guest account). */
export const GUEST_USER_ID = "0";

const text = z.string().trim().min(1).max(255);

/** Every type the services write (lib/server/audit/write-log.ts); the console has a label for each. */
export const LOG_TYPES = [
  "ADMLLOG_LOGIN",
  "ADMLLOG_LOGIN_FAILED",
  "ADMLLOG_LOGOUT",
  "ADMLLOG_INSERT",
  "ADMLLOG_UPDATE",
  "ADMLLOG_DELETE",
  "ADMLLOG_RESTORE",
  "ADMLLOG_PASSWORD",
  "ADMLLOG_CONFIG",
] as const;
export type LogType = (typeof LOG_TYPES)[number];

/** Every `object_type` the services write; the console names each in the reader's language. */
export const LOG_OBJECT_TYPES = [
  "alert",
  "annotation",
  "archive",
  "config",
  "email",
  "file",
  "file_template",
  "folder",
  "group",
  "identity_provider",
  "invitation",
  "job",
  "oauth2_app",
  "oauth2_token",
  "right",
  "share",
  "share_email",
  "signature",
  "tag",
  "tag_category",
  "trash",
  "ulink",
  "ulink_email",
  "user",
  "workflow",
] as const;
export type LogObjectType = (typeof LOG_OBJECT_TYPES)[number];

/** One person filter: a user id, or the guest account ("0" or "guest"). */
const personId = z.union([z.literal(GUEST_USER_ID), z.literal("guest"), z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().positive().max(2_147_483_647))]);
/**
 * `user_id` takes one id as the contract says, or a comma-separated list of them (a compatible
 * extension, like `type`'s list) so the console can filter on several people picked at once.
 */
const userIds = z
  .union([z.number(), z.string()])
  .transform((v) => String(v).split(",").map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(personId).min(1).max(50));

/** GET /logs: every filter optional; `type` also takes a comma-separated list. */
export const listLogsQuery = z.object({
  type: text.optional(),
  statut: z.enum(["ADMLLOG_OK", "ADMLLOG_ERROR"]).optional(),
  user_id: userIds.optional(),
  object_type: text.optional(),
  object_id: text.optional(),
  date_start: dateInput.optional(),
  date_end: dateInput.optional(),
  ...paging,
});
export type ListLogsQuery = z.output<typeof listLogsQuery>;

export const logParams = z.object({ logId: id });

export const logEntryResponse = z.object({
  id: z.number(),
  user_id: z.string(),
  user: z.string(),
  date: isoDate,
  message: z.string(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  type: z.string(),
  statut: z.enum(["ADMLLOG_OK", "ADMLLOG_ERROR"]),
  object_id: z.string().nullable(),
  object_type: z.string().nullable(),
  object: z.string().nullable(),
});
export type LogEntryResponse = z.infer<typeof logEntryResponse>;
export const logListResponse = listResponse(logEntryResponse);
