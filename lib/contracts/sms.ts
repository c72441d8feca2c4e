import { z } from "zod";
import { isoDate, listResponse } from "./common";

/** GET /admin/sms: the text messages the built-in provider sent, newest first. */
export const smsListResponse = listResponse(
  z.object({
    id: z.number().int(),
    to: z.string(),
    body: z.string(),
    provider: z.string(),
    creation_date: isoDate,
    sent_date: isoDate.nullable(),
    error: z.string().nullable(),
  }),
);
