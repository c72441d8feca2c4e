import { z } from "zod";
import { isoDate } from "@/lib/contracts/common";
import {
  ACTOR_STATUSES,
  ACTOR_TYPES,
  FIELD_TYPES,
  INITIAL_POSITIONS,
  SIGNATURE_ACTIVITY_CODES,
  SIGNATURE_LEVELS,
  SIGNATURE_MODES,
  SIGNATURE_STATUSES,
  type SignatureLevel,
  type SignatureMode,
  type SignatureStatus,
} from "./common";
import { reminderSettings } from "./requests";

/** The answers of the signature routes, parsed by the response-schema test. */

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
  options: z.array(z.string()).nullable().optional(),
  read_only: z.boolean(),
  font_size: z.number().nullable().optional(),
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
