import { z } from "zod";
import { dateInput, id, paging } from "@/lib/contracts/common";

/** `user_id` of entries written by an unauthenticated caller (the contract's guest account). */
export const GUEST_USER_ID = "0";

const text = z.string().trim().min(1).max(255);

/** GET /logs: every filter optional; `type` also takes a comma-separated list. */
export const listLogsQuery = z.object({
  type: text.optional(),
  statut: z.enum(["ADMLLOG_OK", "ADMLLOG_ERROR"]).optional(),
  user_id: z.union([z.literal(GUEST_USER_ID), z.literal("guest"), id]).optional(),
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
  date: z.string(),
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
