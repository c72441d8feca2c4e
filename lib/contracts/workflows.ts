import { z } from "zod";
import { id, isoDate, listResponse, paging, principalId } from "@/lib/contracts/common";

/**
 * Workflow instances (api.md, "Workflow instances"; the contract's Workflow instance). Flux:
 * 1 validation of one document, 2 scanned handwritten signature, 3 electronic signature
 * (simple level), 4 validation of several documents, 5 electronic signature (advanced level).
 */

export const WORKFLOW_FLUX = [1, 2, 3, 4, 5] as const;
export type WorkflowFlux = (typeof WORKFLOW_FLUX)[number];

/** State ids; their names are the api.md translation keys `workflow.state.<id>`. */
export const WORKFLOW_STATES = ["waiting_validation", "validated", "refused", "waiting_signature", "signed", "cancelled"] as const;
export type WorkflowState = (typeof WORKFLOW_STATES)[number];
export const FINAL_STATES: readonly WorkflowState[] = ["validated", "refused", "signed", "cancelled"];

export const stateName = (state: WorkflowState) => `workflow.state.${state}` as const;

/** A validator's or signer's own decision. */
export const PARTICIPANT_DECISIONS = ["validated", "refused", "signed"] as const;
export type ParticipantDecision = (typeof PARTICIPANT_DECISIONS)[number];

const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;
const CONTROL_LINE = /[\u0000-\u001F\u007F]/;
// Comments may hold line breaks and tabs, never other control characters.
const CONTROL_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** One line a person reads back (names): no control characters, no bidi overrides. */
const line = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((s) => !BIDI.test(s), "Bidirectional control characters are not allowed")
    .refine((s) => !CONTROL_LINE.test(s), "Control characters are not allowed");

/** A comment: several lines allowed, still no bidi overrides nor other control characters. */
const commentText = z
  .string()
  .trim()
  .max(5000)
  .refine((s) => !BIDI.test(s), "Bidirectional control characters are not allowed")
  .refine((s) => !CONTROL_TEXT.test(s), "Control characters are not allowed");

const email = z.email().max(320);
/** An id sent in a JSON body: number or numeric string. */
const bodyId = z.union([z.number(), z.string()]).pipe(z.coerce.number<string | number>().int().positive().max(2_147_483_647));

const bit = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(["0", "1", "true", "false"])])
  .transform((v) => v === true || v === 1 || v === "1" || v === "true");

const fileObject = z.object({ type: z.literal("file"), id: bodyId });

/** An internal validator: a user of the platform named by id, by email, or both (they must agree). */
const internalValidator = z
  .object({ id: principalId.optional(), email: email.optional(), name: line(255).optional() })
  .refine((v) => v.id !== undefined || v.email !== undefined, "An internal validator needs an id or an email");
const externalValidator = z.object({ email, name: line(255).optional() });

/** A signer (flux 2, 3, 5): `firstname` and `lastname` are required for flux 5 (contract). */
const signer = z.object({ firstname: line(100).optional(), lastname: line(100).optional(), email, id: principalId.optional() });

/**
 * A signature stamp (200x70 PDF points, origin at the bottom-left of the page). `signerIndex`
 * is the 0-based index of the signer in `signatures`, `document` the 0-based index of the file
 * in `objects`, `page` 1-based.
 */
export const SIGNATURE_STAMP = { width: 200, height: 70 } as const;
const signatureField = z.object({
  x: z.coerce.number().min(0).max(20_000),
  y: z.coerce.number().min(0).max(20_000),
  page: z.coerce.number().int().min(1).max(100_000),
  signerIndex: z.coerce.number().int().min(0).max(49),
  document: z.coerce.number().int().min(0).max(49),
});

export const createWorkflowBody = z
  .object({
    flux: z.object({ id: z.coerce.number().int().min(1).max(5).transform((n) => n as WorkflowFlux) }),
    properties: z.object({
      objects: z.array(fileObject).max(50).default([]),
      validation: z
        .object({ interne: z.array(internalValidator).max(50).default([]), externe: z.array(externalValidator).max(50).default([]) })
        .optional(),
      signatures: z.array(signer).max(50).optional(),
      signature_fields: z.array(signatureField).max(200).optional(),
      send_copy: bit.optional(),
      comment: commentText.optional(),
    }),
  })
  .superRefine((body, ctx) => {
    const flux = body.flux.id;
    const p = body.properties;
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path: ["properties", ...path], message });
    const validators = (p.validation?.interne.length ?? 0) + (p.validation?.externe.length ?? 0);
    const signers = p.signatures ?? [];
    // Contract: objects are required for flux 1, 2, 3 and 5, not for 4.
    if (flux !== 4 && p.objects.length === 0) issue(["objects"], `Flux ${flux} needs a file`);
    if ((flux === 1 || flux === 2) && p.objects.length > 1) issue(["objects"], `Flux ${flux} takes one file; flux 4 validates several`);
    if ((flux === 1 || flux === 4) && validators === 0) issue(["validation"], "Name at least one validator (interne or externe)");
    if (flux === 2 && signers.length !== 1) issue(["signatures"], "Flux 2 takes one signer");
    if (flux === 3 || flux === 5) {
      if (signers.length === 0) issue(["signatures"], "Name at least one signer");
      const fields = p.signature_fields ?? [];
      if (fields.length === 0) issue(["signature_fields"], "Place at least one signature field");
      fields.forEach((f, i) => {
        if (f.signerIndex >= signers.length) issue(["signature_fields", i, "signerIndex"], "No signer has this index");
        if (f.document >= p.objects.length) issue(["signature_fields", i, "document"], "No file of objects has this index");
      });
      signers.forEach((s, i) => {
        if (!fields.some((f) => f.signerIndex === i)) issue(["signatures", i], "Every signer needs a signature field");
      });
    }
    if (flux === 5) {
      signers.forEach((s, i) => {
        if (!s.firstname) issue(["signatures", i, "firstname"], "Required for flux 5");
        if (!s.lastname) issue(["signatures", i, "lastname"], "Required for flux 5");
      });
    }
  });
export type CreateWorkflowInput = z.output<typeof createWorkflowBody>;

/** `role=validator`: the instances where the caller is an internal validator (the "To validate" list). */
export const listWorkflowsQuery = z.object({ ...paging, role: z.enum(["initiator", "validator"]).default("initiator") });

/** A validator's mailed link: `<participant id>.<secret>`, URL safe; never a bare number. */
export const workflowToken = z.string().regex(/^[0-9]{1,10}\.[A-Za-z0-9_-]{43}$/, "Not a workflow link");
/**
 * The path segment of `/workflow/instance/(x)`: an instance id (signed-in callers) or a
 * validator's token (api.md: GET and POST transition "by mailed token").
 */
export const workflowKey = z.union([workflowToken, z.string().regex(/^[0-9]{1,10}$/).transform(Number).pipe(z.number().int().positive().max(2_147_483_647))]);
export const workflowKeyParams = z.object({ key: workflowKey });
export const workflowIdParams = z.object({ key: id });
export const workflowTokenParams = z.object({ key: workflowToken });
export const workflowDocumentParams = z.object({ key: workflowKey, fileId: id, type: z.enum(["preview", "download"]) });

/** POST /workflow/instance/(token)/transition; `state` accepts the id or its translation key. */
export const transitionBody = z.object({
  state: z
    .string()
    .trim()
    .max(64)
    .transform((s) => s.replace(/^workflow\.state\./, "")),
  comment: commentText.optional(),
});
export type TransitionInput = z.output<typeof transitionBody>;

// ── Responses ───────────────────────────────────────────────────────────────────────────────

const stateResponse = z.object({ id: z.enum(WORKFLOW_STATES), name: z.string() });
/** A validator or signer; `user_id` an int as the instance's `owner_id` and a Signature actor's (the contract), null for an outsider. */
const participantResponse = z.object({
  id: z.number().int(),
  type: z.enum(["interne", "externe", "signer"]),
  user_id: z.number().int().nullable(),
  email: z.string(),
  name: z.string().nullable(),
  decision: z.enum(PARTICIPANT_DECISIONS).nullable(),
  comment: z.string().nullable(),
  date: isoDate.nullable(),
  opened: z.boolean(),
});
export type WorkflowParticipantResponse = z.infer<typeof participantResponse>;

const documentResponse = z.object({
  id: z.number(),
  name: z.string(),
  size: z.number(),
  mime: z.string(),
  /** Flux 2: the scanned signed document stored beside the original (a File id), once sent. */
  signed_id: z.number().nullable().optional(),
  signed_name: z.string().nullable().optional(),
});
export type WorkflowDocumentResponse = z.infer<typeof documentResponse>;

/**
 * The contract's Workflow instance. The initiator sees every participant (`validators`); a
 * validator sees only themselves (`me`) and the moves offered to them (`transitions_available`,
 * transition name → target states).
 */
export const workflowInstanceResponse = z.object({
  id: z.number(),
  object_type: z.string().nullable(),
  object_id: z.number().nullable(),
  flux: z.object({ id: z.number(), name: z.string(), description: z.string() }),
  state: stateResponse,
  owner_id: z.number().int(),
  owner: z.string(),
  properties: z.array(z.record(z.string(), z.unknown())),
  creation: isoDate,
  edit: isoDate,
  is_closed: z.boolean(),
  transitions_available: z.record(z.string(), z.array(z.object({ id: z.string(), name: z.string() }))),
  data_objects: z.array(z.object({ type: z.literal("file"), id: z.number() })),
  comment: z.string().nullable(),
  documents: z.array(documentResponse),
  validators: z.array(participantResponse).optional(),
  me: participantResponse.optional(),
  /** Flux 3 and 5: the signature request behind the instance. */
  signature_id: z.number().nullable().optional(),
});
export type WorkflowInstanceResponse = z.infer<typeof workflowInstanceResponse>;
export const workflowInstanceListResponse = listResponse(workflowInstanceResponse);

/** The `workflow` field of a File in full mode, while an instance holds the file. */
export const fileWorkflowResponse = z.object({ id: z.number(), flux: z.number(), state: stateResponse, is_closed: z.boolean() });
export type FileWorkflowResponse = z.infer<typeof fileWorkflowResponse>;

export const workflowTokenResponse = z.object({ token: z.string() });

/** GET /workflow/validators?search=: people who may be named internal validators (3 characters at least). */
export const validatorSearchQuery = z.object({ search: z.string().trim().min(3).max(100) });
export const validatorCandidate = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type ValidatorCandidate = z.infer<typeof validatorCandidate>;
export const validatorCandidatesResponse = z.array(validatorCandidate);
