import { z } from "zod";
import { id, paging, isoDate, listResponse } from "@/lib/contracts/common";
import { LANGUAGES } from "@/lib/contracts/users";

/** The contract's Email types: the internal default, custom alert templates, and the outbox. */
export const EMAIL_TYPES = ["EM_TE_DEFAUT", "EM_TE_ALERT", "EM_TE_SENDED", "EM_TE_TOSEND"] as const;
export const emailType = z.enum(EMAIL_TYPES);
export type EmailType = z.infer<typeof emailType>;

/** What a custom alert mail may name; the alert digest fills them for each recipient. */
export const ALERT_PLACEHOLDERS = ["recipient", "folder", "file", "link", "actor", "changes", "platform"] as const;

const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;

const subject = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .refine((s) => !/[\r\n]/.test(s), "A subject is one line")
  // Direction overrides let a subject read differently from what it holds ("\u202E" spoofing).
  .refine((s) => !BIDI_CONTROLS.test(s), "A subject holds no bidirectional control characters");

/**
 * The `{{names}}` of a text that an alert mail cannot fill (they would be sent as empty text), once
 * each, in order of appearance. The services refuse them naming each one (template-placeholders.ts);
 * the template editor uses the same function to point at them while one types.
 */
export function unknownPlaceholders(text: string): string[] {
  const names = [...text.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)].map((m) => m[1]);
  return [...new Set(names.filter((name) => !(ALERT_PLACEHOLDERS as readonly string[]).includes(name)))];
}

const templateContent = z
  .string()
  .max(100_000)
  .refine((s) => s.trim().length > 0, "content must not be empty");

/** `to` (and the obsolete `bcc`): comma-separated addresses. */
const addressList = z
  .string()
  .max(4000)
  .transform((s) => s.split(",").map((a) => a.trim()).filter(Boolean))
  .pipe(z.array(z.email()).min(1))
  .transform((list) => list.join(", "));

export const emailParams = z.object({ emailId: id });

/** POST /email: only a custom alert template can be created (the contract). */
export const createEmailBody = z.object({
  type: z.literal("EM_TE_ALERT", { error: "Only EM_TE_ALERT can be created" }).default("EM_TE_ALERT"),
  object: subject,
  content: templateContent,
});
export type CreateEmailInput = z.output<typeof createEmailBody>;

/** PUT /email/(id): `object` and `content` for templates; also `to` (and `bcc`) for a waiting mail. */
export const updateEmailBody = z.object({
  object: subject.optional(),
  content: z.string().max(100_000).optional(),
  to: addressList.optional(),
  bcc: addressList.nullable().optional(),
});
export type UpdateEmailInput = z.output<typeof updateEmailBody>;

/** A template's changed fields follow the creation rules (non-empty content; placeholders: the services). */
export const templateChanges = createEmailBody.pick({ object: true, content: true }).partial();

export const listEmailsQuery = z.object({ type: emailType.optional(), ...paging });
export type ListEmailsQuery = z.output<typeof listEmailsQuery>;

/** The contract's Email. `from`, `to`, `bcc` only for the outbox; `owner_id` null for system mails. */
export const emailResponse = z.object({
  id: z.number().int(),
  type: emailType,
  object: z.string(),
  content: z.string(),
  owner: z.string(),
  owner_id: z.string().nullable(),
  from: z.string().nullable().optional(),
  to: z.string().nullable().optional(),
  bcc: z.string().nullable().optional(),
  last_send: isoDate.nullable(),
  /** Outbox only: failed delivery attempts and the SMTP server's last answer (null once sent). */
  attempts: z.number().int().optional(),
  last_error: z.string().nullable().optional(),
  /** The body carries a secret (reset link, password) and is withheld: `content` is empty. */
  sensitive: z.boolean(),
});
export type EmailResponse = z.infer<typeof emailResponse>;

/**
 * POST /email/preview (administrators): an alert template rendered by the mail renderer with
 * sample values, before it is saved. `language` chooses the sample values' language (the
 * caller's by default).
 */
export const previewEmailBody = z.object({
  object: z.string().max(255).default(""),
  content: z.string().max(100_000).default(""),
  language: z.enum(LANGUAGES).optional(),
});
export type PreviewEmailInput = z.output<typeof previewEmailBody>;

export const previewEmailResponse = z.object({
  subject: z.string(),
  text: z.string(),
  /** The HTML part as sent; show it only in a sandboxed frame (no script, no same origin). */
  html: z.string(),
  /** The sample value given to each placeholder, in ALERT_PLACEHOLDERS order. */
  samples: z.array(z.object({ name: z.enum(ALERT_PLACEHOLDERS), value: z.string() })),
});
export type PreviewEmailResponse = z.infer<typeof previewEmailResponse>;
export const emailListResponse = listResponse(emailResponse);
