import { z } from "zod";

/**
 * Signature requests (api.md, "Signature requests"; the contract's Signature request / actor /
 * document / activity). Coordinates are PDF points, origin at the bottom-left of the page.
 * Shared enums and text rules; the bodies are in requests.ts, the answers in responses.ts.
 */

export const SIGNATURE_STATUSES = ["draft", "ongoing", "done", "refused", "expired", "cancelled"] as const;
export const ACTOR_STATUSES = ["initiated", "notified", "opened", "done", "refused"] as const;
export const SIGNATURE_MODES = ["standard", "parallel", "mass"] as const;
export const SIGNATURE_LEVELS = ["electronic_signature", "advanced_electronic_signature", "qualified_electronic_signature"] as const;
export const ACTOR_TYPES = ["signer", "approver", "follower"] as const;
/** Issue 31: full_name, email and date_signed are filled from the signer at signing, read-only by nature. */
export const FIELD_TYPES = ["signature", "initials", "full_name", "email", "date_signed", "text", "number", "checkbox", "radio", "dropdown"] as const;
export const AUTO_FIELD_TYPES = ["full_name", "email", "date_signed"] as const;
/** Fields whose value is one of the field's `options`. */
export const CHOICE_FIELD_TYPES = ["radio", "dropdown"] as const;
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
export const bit = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(["0", "1", "true", "false"])])
  .transform((v) => v === true || v === 1 || v === "1" || v === "true");

/** Free text a person reads back (names, questions): one line, no bidi overrides. */
export const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;
export const CONTROL = /[\u0000-\u001F\u007F]/;
export const line = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((s) => !BIDI.test(s), "Bidirectional control characters are not allowed")
    .refine((s) => !CONTROL.test(s), "Control characters are not allowed");

