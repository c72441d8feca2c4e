import { z } from "zod";
import { id, paging } from "@/lib/contracts/common";

/** The contract's Email types: the internal default, custom alert templates, and the outbox. */
export const EMAIL_TYPES = ["EM_TE_DEFAUT", "EM_TE_ALERT", "EM_TE_SENDED", "EM_TE_TOSEND"] as const;
export const emailType = z.enum(EMAIL_TYPES);
export type EmailType = z.infer<typeof emailType>;

/** What a custom alert mail may name; the alert digest fills them for each recipient. */
export const ALERT_PLACEHOLDERS = ["recipient", "folder", "file", "link", "actor", "changes", "platform"] as const;

const subject = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .refine((s) => !/[\r\n]/.test(s), "A subject is one line");

/** Unknown `{{names}}` would be sent as empty text: refused, naming the ones that exist. */
const templateText = (max: number) =>
  z
    .string()
    .max(max)
    .superRefine((text, ctx) => {
      const unknown = [...text.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)]
        .map((m) => m[1])
        .filter((name) => !(ALERT_PLACEHOLDERS as readonly string[]).includes(name));
      if (unknown.length) {
        ctx.addIssue({ code: "custom", message: `Unknown placeholder ${[...new Set(unknown)].map((n) => `{{${n}}}`).join(", ")}; use ${ALERT_PLACEHOLDERS.map((n) => `{{${n}}}`).join(" ")}` });
      }
    });

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
  object: templateText(255).pipe(subject),
  content: templateText(100_000).refine((s) => s.trim().length > 0, "content must not be empty"),
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

/** A template's changed fields follow the creation rules (placeholders, non-empty content). */
export const templateChanges = createEmailBody.pick({ object: true, content: true }).partial();

export const listEmailsQuery = z.object({ type: emailType.optional(), ...paging });
export type ListEmailsQuery = z.output<typeof listEmailsQuery>;

/** The contract's Email. `from`, `to`, `bcc` only for the outbox; `owner_id` null for system mails. */
export const emailResponse = z.object({
  id: z.number(),
  type: emailType,
  object: z.string(),
  content: z.string(),
  owner: z.string(),
  owner_id: z.string().nullable(),
  from: z.string().nullable().optional(),
  to: z.string().nullable().optional(),
  bcc: z.string().nullable().optional(),
  last_send: z.string().nullable(),
  /** Outbox only: failed delivery attempts and the SMTP server's last answer (null once sent). */
  attempts: z.number().optional(),
  last_error: z.string().nullable().optional(),
  /** The body carries a secret (reset link, password) and is withheld: `content` is empty. */
  sensitive: z.boolean(),
});
export type EmailResponse = z.infer<typeof emailResponse>;
