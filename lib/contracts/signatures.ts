import { z } from "zod";
import { dateInput, flag, id, isoDate, paging } from "@/lib/contracts/common";

/**
 * Signature requests (api.md, "Signature requests"; the contract's Signature request / actor /
 * document / activity). Coordinates are PDF points, origin at the bottom-left of the page.
 */

export const SIGNATURE_STATUSES = ["draft", "ongoing", "done", "refused", "expired", "cancelled"] as const;
export const ACTOR_STATUSES = ["initiated", "notified", "opened", "done", "refused"] as const;
export const SIGNATURE_MODES = ["standard", "parallel", "mass"] as const;
export const SIGNATURE_LEVELS = ["electronic_signature", "advanced_electronic_signature", "qualified_electronic_signature"] as const;
export const ACTOR_TYPES = ["signer", "approver", "follower"] as const;
export const FIELD_TYPES = ["signature", "checkbox", "text"] as const;
export const INITIAL_POSITIONS = ["bottom-left", "bottom-center", "bottom-right"] as const;
export const SIGNATURE_ACTIVITY_CODES = [
  "signature_request.invitationCreated",
  "signature_request.invitationSent",
  "signer.link_opened",
  "signer.signed",
  "signer.refused",
  "approver.approved",
  "signer.reminded",
  "signature_request.done",
  "signature_request.expired",
  "signature_request.cancelled",
] as const;

export type SignatureStatus = (typeof SIGNATURE_STATUSES)[number];
export type ActorStatus = (typeof ACTOR_STATUSES)[number];
export type SignatureMode = (typeof SIGNATURE_MODES)[number];
export type SignatureLevel = (typeof SIGNATURE_LEVELS)[number];
export type ActorType = (typeof ACTOR_TYPES)[number];
export type FieldType = (typeof FIELD_TYPES)[number];
export type SignatureActivityCode = (typeof SIGNATURE_ACTIVITY_CODES)[number];

/** A body boolean as the contract writes them: 0/1, true/false and their strings. */
const bit = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(["0", "1", "true", "false"])])
  .transform((v) => v === true || v === 1 || v === "1" || v === "true");

/** Free text a person reads back (names, questions): one line, no bidi overrides. */
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;
const CONTROL = /[\u0000-\u001F\u007F]/;
const line = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((s) => !BIDI.test(s), "Bidirectional control characters are not allowed")
    .refine((s) => !CONTROL.test(s), "Control characters are not allowed");

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

/** POST /signatures; `template_id` copies a template's documents, actors and fields into the new draft. */
export const createSignatureBody = z.object({
  name: requestName,
  mode: z.enum(SIGNATURE_MODES).optional(),
  ordered: bit.optional(),
  level: z.enum(SIGNATURE_LEVELS).optional(),
  reminder_day: reminderDay.nullable().optional(),
  expiration_date: dateInput.nullable().optional(),
  send_copy: bit.optional(),
  template_id: id.optional(),
  subject: mailSubject.nullable().optional(),
  message: mailMessage.nullable().optional(),
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
  mode: z.enum(SIGNATURE_MODES).optional(),
  ordered: bit.optional(),
  level: z.enum(SIGNATURE_LEVELS).optional(),
  reminder_day: reminderDay.nullable().optional(),
  expiration_date: dateInput.nullable().optional(),
  send_copy: bit.optional(),
  is_template: bit.optional(),
  subject: mailSubject.nullable().optional(),
  message: mailMessage.nullable().optional(),
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
  default_value: z.string().max(1000).nullable().optional(),
  max_length: z.coerce.number().int().min(1).max(1000).nullable().optional(),
  size: z.coerce.number().positive().max(200).nullable().optional(),
  reason: line(255).nullable().optional(),
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

// ── Responses ───────────────────────────────────────────────────────────────────────────────

export const signatureFieldResponse = z.object({
  id: z.number(),
  document_id: z.number(),
  type: z.enum(FIELD_TYPES),
  page: z.number(),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  signer_id: z.number(),
  reason: z.string().nullable(),
  display: z.array(z.object({ layout: z.string() })),
  optional: z.boolean(),
  size: z.number().nullable().optional(),
  question: z.string().nullable().optional(),
  default_value: z.string().nullable().optional(),
  max_length: z.number().nullable().optional(),
  /** Filled once its signer has signed (text and checkbox values; `true` for a signature). */
  value: z.union([z.string(), z.boolean()]).nullable().optional(),
});
export type SignatureFieldResponse = z.infer<typeof signatureFieldResponse>;

export const pageSize = z.object({ width: z.number(), height: z.number() });

export const signatureDocumentResponse = z.object({
  id: z.number(),
  esign_id: z.string().nullable(),
  file_id: z.number().nullable(),
  file_signed_id: z.number().nullable(),
  name: z.string(),
  initial_position: z.enum(INITIAL_POSITIONS).nullable(),
  signature_id: z.number(),
  pages: z.array(pageSize),
  fields: z.array(signatureFieldResponse),
  sha256_before: z.string().nullable().optional(),
  sha256_after: z.string().nullable().optional(),
});
export type SignatureDocumentResponse = z.infer<typeof signatureDocumentResponse>;

export const signatureActorResponse = z.object({
  id: z.number(),
  esign_id: z.string().nullable(),
  user_id: z.number().int().nullable(),
  type: z.enum(ACTOR_TYPES),
  position: z.number(),
  phone: z.string().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  locale: z.string().nullable().optional(),
  signature_level: z.enum(SIGNATURE_LEVELS).nullable().optional(),
  status: z.enum(ACTOR_STATUSES),
  /** `BASE_URL/sign/<token>`: to the initiator (and the actor themself), never to anyone else. */
  link: z.string().nullable(),
  refuse_reason: z.string().nullable(),
  refuse_at: isoDate.nullable(),
  signed_at: isoDate.nullable().optional(),
  signature_id: z.number(),
});
export type SignatureActorResponse = z.infer<typeof signatureActorResponse>;

export const signatureActivityResponse = z.object({
  id: z.number(),
  action: z.enum(SIGNATURE_ACTIVITY_CODES),
  /** The actor who acted (null: the initiator or the platform). */
  from: z.number().nullable(),
  /** The actor the action concerns (invited, reminded...), or null. */
  to: z.number().nullable(),
  to_user: signatureActorResponse.nullable(),
  /** Who acted, as a name: the platform user (the initiator, an administrator), else the actor `from`; null for the platform. */
  by: z.string().nullable(),
  date: isoDate,
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable().optional(),
  signature_id: z.number(),
});
export type SignatureActivityResponse = z.infer<typeof signatureActivityResponse>;

export type SignatureResponse = {
  id: number;
  user_id: number;
  owner: string;
  signature_parent_id: number | null;
  esign_id: string | null;
  name: string;
  status: SignatureStatus;
  ordered: 0 | 1;
  is_masses: 0 | 1;
  mode: SignatureMode;
  level: SignatureLevel;
  reminder_day: number | null;
  reminder_settings: { interval_in_days: number; max_occurences: number } | null;
  expiration_date: string | null;
  send_copy: 0 | 1;
  subject: string | null;
  message: string | null;
  is_template: 0 | 1;
  creation_date: string;
  modification_date: string;
  completed_at: string | null;
  deleted_at: string | null;
  documents: SignatureDocumentResponse[];
  actors: SignatureActorResponse[];
  activities?: SignatureActivityResponse[];
  children?: SignatureResponse[];
};

export const signatureResponse: z.ZodType<SignatureResponse> = z.lazy(() =>
  z.object({
    id: z.number(),
    user_id: z.number().int(),
    owner: z.string(),
    signature_parent_id: z.number().nullable(),
    esign_id: z.string().nullable(),
    name: z.string(),
    status: z.enum(SIGNATURE_STATUSES),
    ordered: z.union([z.literal(0), z.literal(1)]),
    is_masses: z.union([z.literal(0), z.literal(1)]),
    mode: z.enum(SIGNATURE_MODES),
    level: z.enum(SIGNATURE_LEVELS),
    reminder_day: z.number().nullable(),
    reminder_settings: reminderSettings.nullable(),
    expiration_date: isoDate.nullable(),
    send_copy: z.union([z.literal(0), z.literal(1)]),
    subject: z.string().nullable(),
    message: z.string().nullable(),
    is_template: z.union([z.literal(0), z.literal(1)]),
    creation_date: isoDate,
    modification_date: isoDate,
    completed_at: isoDate.nullable(),
    deleted_at: isoDate.nullable(),
    documents: z.array(signatureDocumentResponse),
    actors: z.array(signatureActorResponse),
    activities: z.array(signatureActivityResponse).optional(),
    children: z.array(signatureResponse).optional(),
  }),
);

export const signatureListResponse = z.object({
  offset_start: z.number(),
  nb_objets: z.number(),
  nb_objects: z.number(),
  nb_total_objects: z.number(),
  objects: z.array(signatureResponse),
});

export const activityListResponse = z.object({
  offset_start: z.number(),
  nb_objets: z.number(),
  nb_objects: z.number(),
  nb_total_objects: z.number(),
  objects: z.array(signatureActivityResponse),
});

/** GET /sign/(token): what one actor sees; only their own fields, no other actor's contact. */
export const publicSigningResponse = z.object({
  signature: z.object({
    id: z.number(),
    name: z.string(),
    status: z.enum(SIGNATURE_STATUSES),
    expiration_date: isoDate.nullable(),
    level: z.enum(SIGNATURE_LEVELS),
    owner: z.string(),
  }),
  actor: z.object({
    id: z.number(),
    type: z.enum(ACTOR_TYPES),
    status: z.enum(ACTOR_STATUSES),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    /** A one-time code must be sent (POST /sign/(token)/sms) and given as `sms_code` to sign. */
    code_required: z.boolean(),
    /** Where the code goes: `sms` (masked phone) or `email`. */
    code_channel: z.enum(["sms", "email"]).nullable(),
    code_destination: z.string().nullable(),
  }),
  documents: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      pages: z.array(pageSize),
      fields: z.array(signatureFieldResponse),
    }),
  ),
});
export type PublicSigningResponse = z.infer<typeof publicSigningResponse>;

/** POST /sign/(token)/sms → where the code went (masked), for the page to say so. */
export const codeSentResponse = z.object({ channel: z.enum(["sms", "email"]), destination: z.string() });
export type CodeSentResponse = z.infer<typeof codeSentResponse>;

/** POST /signatures/(id)/actors/remind and …/actors/(actorId)/remind: the actors reminded. */
/** POST …/remind: an optional message of its own for this reminder (no body: the platform's wording). */
export const remindBody = z.object({ message: mailMessage.nullable().optional() });
export type RemindInput = z.output<typeof remindBody>;

export const remindResponse = z.object({ reminded: z.array(z.number().int()) });

/** GET …/export: CSV by default (text/csv); with format=json these rows, only the columns asked for. */
export const exportRowsResponse = z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()])));

/** Columns the exports know, in their default order. */
export const SIGNATURE_EXPORT_COLUMNS = [
  "id",
  "name",
  "status",
  "mode",
  "level",
  "ordered",
  "owner",
  "user_id",
  "creation_date",
  "expiration_date",
  "completed_at",
  "deleted_at",
  "nb_documents",
  "nb_signers",
  "nb_signed",
] as const;
export const ACTIVITY_EXPORT_COLUMNS = ["id", "date", "action", "from", "to", "actor_email", "actor_name", "ip", "user_agent", "signature_id"] as const;
