import { z } from "zod";
import { id, paging, isoDate, listResponse } from "@/lib/contracts/common";

const subject = z
  .string()
  .trim()
  .max(255)
  .refine((s) => !/[\r\n]/.test(s), "A subject is one line");

export const shareEmailParams = z.object({ shareEmailId: id });
export const pagingQuery = z.object({ ...paging });

/** POST /share/email (api.md): the owner of a link share sends it by mail. */
export const createShareEmailBody = z.object({
  share_id: id,
  object: subject.default(""),
  content: z.string().max(100_000).default(""),
  recipients: z.array(z.object({ email: z.email().max(320) })).min(1).max(100),
});
export type CreateShareEmailInput = z.output<typeof createShareEmailBody>;

/** PUT /share/email/(id): the subject and message, kept for the record (not sent again). */
export const updateShareEmailBody = z.object({
  object: subject.optional(),
  content: z.string().max(100_000).optional(),
});
export type UpdateShareEmailInput = z.output<typeof updateShareEmailBody>;

/** Visits through one recipient's personal address (`?r=<key>`). */
export const recipientStats = z.object({
  visits: z.number(),
  previews: z.number(),
  downloads: z.number(),
  last_visit: z.string().nullable(),
});

/**
 * The contract's Email share, with per-recipient statistics; `stats` keeps the legacy form's
 * totals ({nb_download, nb_preview}).
 */
export const shareEmailResponse = z.object({
  id: z.number().int(),
  object: z.string(),
  content: z.string(),
  owner_id: z.string(),
  share_id: z.number().int(),
  creation_date: isoDate,
  recipients: z.array(z.object({ email: z.string(), url: z.string() }).extend(recipientStats.shape)),
  stats: z.object({ nb_download: z.number().int(), nb_preview: z.number().int() }),
});
export type ShareEmailResponse = z.infer<typeof shareEmailResponse>;
export const shareEmailListResponse = listResponse(shareEmailResponse);
