import { z } from "zod";
import { dateInput, flag, id, paging } from "@/lib/contracts/common";
import { ACTOR_TYPES, BIDI, FIELD_TYPES, INITIAL_POSITIONS, SIGNATURE_LEVELS, SIGNATURE_MODES, SIGNATURE_STATUSES, bit, line } from "./common";

/** Bodies, queries and path parameters of the signature routes (api.md, "Signature requests"). */

const requestName = line(255).min(1);
const phone = z.string().trim().regex(/^\+?[0-9 ().-]{6,24}$/, "Expected a phone number in international form");

// ── Path parameters ─────────────────────────────────────────────────────────────────────────

export const signatureParams = z.object({ signatureId: id });
export const signatureActorParams = z.object({ signatureId: id, actorId: id });
/** `POST /signatures/(id)/documents/(fileId)` and `PUT`/`DELETE .../documents/(docId)` share a path segment. */
export const signatureDocumentParams = z.object({ signatureId: id, documentId: id });
export const signatureFieldParams = z.object({ signatureId: id, documentId: id, fieldId: id });
/** A signing token: `<actorId>.<nonce>.<mac>`, all URL safe. */
export const signToken = z.string().min(10).max(200).regex(/^[0-9]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, "Not a signing link");
export const signTokenParams = z.object({ token: signToken });
export const signDocumentParams = z.object({ token: signToken, documentId: id });

// ── Requests ────────────────────────────────────────────────────────────────────────────────

const reminderDay = z.coerce.number().int().min(0).max(365);

/** The invitation's subject (issue 31): one line, no control or bidirectional characters. */
export const mailSubject = line(200);
/** A message to signers (invitation, reminder): lines and tabs allowed, other control and bidirectional characters not. */
export const mailMessage = z
  .string()
  .trim()
  .max(2000)
  .refine((s) => !BIDI.test(s), "Bidirectional control characters are not allowed")
  .refine((s) => !/[\u0000-\u0008\u000B-\u001F\u007F]/.test(s), "Control characters other than line breaks and tabs are not allowed");

/** A request's settings, as POST and PUT /signatures take them. */
const requestSettings = {
  mode: z.enum(SIGNATURE_MODES).optional(),
  ordered: bit.optional(),
  level: z.enum(SIGNATURE_LEVELS).optional(),
  reminder_day: reminderDay.nullable().optional(),
  expiration_date: dateInput.nullable().optional(),
  send_copy: bit.optional(),
  subject: mailSubject.nullable().optional(),
  message: mailMessage.nullable().optional(),
};

/** POST /signatures; `template_id` copies a template's documents, actors and fields into the new draft. */
export const createSignatureBody = z.object({
  name: requestName,
  ...requestSettings,
  template_id: id.optional(),
});
export type CreateSignatureInput = z.output<typeof createSignatureBody>;

export const reminderSettings = z.object({
  interval_in_days: z.coerce.number().int().min(1).max(365),
  max_occurences: z.coerce.number().int().min(0).max(100),
});

/**
 * PUT /signatures/(id): everything while draft; once ongoing only `reminder_day`,
 * `expiration_date` and `data.reminder_settings` (else 409 signature_state).
 */
export const updateSignatureBody = z.object({
  name: requestName.optional(),
  ...requestSettings,
  is_template: bit.optional(),
  data: z.object({ reminder_settings: reminderSettings.nullable().optional() }).optional(),
});
export type UpdateSignatureInput = z.output<typeof updateSignatureBody>;

/** GET /signatures, /signatures/received, /signatures/templates */
export const listSignaturesQuery = z.object({
  ...paging,
  name: z.string().max(255).optional(),
  status: z.enum(SIGNATURE_STATUSES).optional(),
  full: flag,
});
export type ListSignaturesQuery = z.output<typeof listSignaturesQuery>;

export const EXPORT_FORMATS = ["csv", "json"] as const;
/** GET /signatures/export, /signatures/received/export, /signatures/(id)/activities/export */
export const exportQuery = z.object({
  ...paging,
  nb_objects: z.coerce.number().int().min(0).default(1000).transform((n) => Math.min(n, 10_000)),
  name: z.string().max(255).optional(),
  status: z.enum(SIGNATURE_STATUSES).optional(),
  format: z.enum(EXPORT_FORMATS).default("csv"),
  columns: z
    .string()
    .max(2000)
    .optional()
    .transform((s) => (s ? s.split(",").map((c) => c.trim()).filter(Boolean) : undefined)),
});
export type ExportQuery = z.output<typeof exportQuery>;

export const fullQuery = z.object({ full: flag });

// ── Actors ──────────────────────────────────────────────────────────────────────────────────

export const actorInfos = z.object({
  email: z.email().max(320),
  first_name: line(100).min(1),
  last_name: line(100).min(1),
  locale: z.string().trim().regex(/^[a-z]{2}(-[A-Za-z]{2})?$/, "Expected a locale such as en or fr").optional(),
  phone: phone.nullable().optional(),
});

/** POST /signatures/(id)/actors; `id` names an internal user (then `infos` may be left out). */
export const addActorBody = z.object({
  type: z.enum(ACTOR_TYPES),
  id: z.union([z.string(), z.number()]).pipe(z.coerce.number<string | number>().int().positive().max(2_147_483_647)).optional(),
  infos: actorInfos.partial().optional(),
  signature_level: z.enum(SIGNATURE_LEVELS).optional(),
  /** Order when the request is ordered; appended last when absent. */
  position: z.coerce.number().int().min(1).max(1000).optional(),
});
export type AddActorInput = z.output<typeof addActorBody>;

// ── Documents ───────────────────────────────────────────────────────────────────────────────

/** The contract's initials: alignment and `y` (which must be 0). */
export const initialsInput = z.object({
  alignment: z.enum(["left", "center", "right", ...INITIAL_POSITIONS]),
  y: z.coerce.number().refine((v) => v === 0, "y must be 0"),
});

export const addDocumentBody = z.object({
  name: line(255).min(1).optional(),
  initials: initialsInput.nullable().optional(),
});
export type AddDocumentInput = z.output<typeof addDocumentBody>;
export const updateDocumentBody = addDocumentBody;
export type UpdateDocumentInput = AddDocumentInput;

// ── Fields ──────────────────────────────────────────────────────────────────────────────────

const coordinate = z.coerce.number().min(0).max(14_400);

export const addFieldBody = z.object({
  type: z.enum(FIELD_TYPES),
  page: z.coerce.number().int().min(1).max(100_000),
  x: coordinate,
  y: coordinate,
  width: z.coerce.number().positive().max(14_400).optional(),
  height: z.coerce.number().positive().max(14_400).optional(),
  signer_id: id,
  optional: bit.optional(),
  question: line(500).nullable().optional(),
  default_value: line(1000).nullable().optional(),
  max_length: z.coerce.number().int().min(1).max(1000).nullable().optional(),
  size: z.coerce.number().positive().max(200).nullable().optional(),
  reason: line(255).nullable().optional(),
  /** A radio group's or dropdown's choices: 1 to 50 distinct lines. */
  options: z.array(line(100).min(1)).min(1).max(50).nullable().optional(),
  /** Shown with `default_value`, which the signer cannot change. */
  read_only: bit.optional(),
  font_size: z.coerce.number().min(4).max(72).nullable().optional(),
});
export type AddFieldInput = z.output<typeof addFieldBody>;
export const updateFieldBody = addFieldBody.partial();
export type UpdateFieldInput = z.output<typeof updateFieldBody>;

// ── The signer's side (public, the token is the credential) ────────────────────────────────

/** A drawn signature: a PNG data URL (checked for PNG magic and 512 KiB once decoded). */
export const MAX_SIGNATURE_PNG_BYTES = 512 * 1024;
/** ... and at most this many pixels wide and high (the signing page's pad draws 960 x 320). */
export const MAX_SIGNATURE_WIDTH = 2000;
export const MAX_SIGNATURE_HEIGHT = 1000;
export const MAX_TYPED_SIGNATURE = 100;

export const signBody = z.object({
  fields: z
    .array(z.object({ id, value: z.union([z.string().max(MAX_SIGNATURE_PNG_BYTES * 2), z.boolean(), z.number()]).nullable() }))
    .max(500)
    .default([]),
  signature: z
    .object({
      type: z.enum(["drawn", "typed"]),
      image: z.string().max(Math.ceil((MAX_SIGNATURE_PNG_BYTES * 4) / 3) + 64).optional(),
      text: z.string().max(MAX_TYPED_SIGNATURE * 4).optional(),
    })
    .optional(),
  approve: z.boolean().optional(),
  /** The one-time code (advanced level, or an actor with a phone). */
  sms_code: z.string().trim().regex(/^\d{6}$/, "Expected the 6-digit code").optional(),
});
export type SignInput = z.output<typeof signBody>;

export const refuseBody = z.object({ reason: z.string().trim().min(1).max(2000).refine((s) => !BIDI.test(s), "Bidirectional control characters are not allowed") });
export type RefuseInput = z.output<typeof refuseBody>;


/** POST …/remind: an optional message of its own for this reminder (no body: the platform's wording). */
export const remindBody = z.object({ message: mailMessage.nullable().optional() });
export type RemindInput = z.output<typeof remindBody>;

// ── Templates (issue 31): a request's documents, fields and roles (its actors), reused ─────

export const signatureTemplateParams = z.object({ templateId: id });

/** POST /signature-templates: saves one of my requests as a template (documents, roles, fields). */
export const createTemplateBody = z.object({ signature_id: id, name: requestName.optional() });
export type CreateTemplateInput = z.output<typeof createTemplateBody>;

/** One role (a template's actor) given to a person: a platform user (`id`) or `infos`. */
export const templateRoleInput = z.object({
  role: id,
  id: id.optional(),
  infos: actorInfos.partial().optional(),
});
export type TemplateRoleInput = z.output<typeof templateRoleInput>;

/** POST /signature-template/(id)/use: a new draft; roles left out keep the template's person. */
export const useTemplateBody = z.object({
  name: requestName.optional(),
  roles: z.array(templateRoleInput).max(100).default([]),
  expiration_date: dateInput.nullable().optional(),
  subject: mailSubject.nullable().optional(),
  message: mailMessage.nullable().optional(),
});
export type UseTemplateInput = z.output<typeof useTemplateBody>;
