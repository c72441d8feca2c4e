import "server-only";
import { randomUUID } from "node:crypto";
import { ZodError } from "zod";
import { StorageError, type StorageErrorCode } from "@/lib/storage/storage-error";

const STATUS = {
  invalid_request: 400,
  invalid_name: 400,
  invalid_json: 400,
  /** A change of what protects the account without `password` (or `code`): api.md, "Account security". */
  reauth_required: 400,
  unauthorized: 401,
  /** A right password for an account with a second factor: details {methods, mfa_token} (api.md). */
  mfa_required: 401,
  /** A second factor is demanded (user or platform) and none is set up yet: only enrolment is open. */
  mfa_enrollment_required: 401,
  forbidden: 403,
  /** An OAuth2 token without the scope of the route's area (api.md, "OAuth2"). */
  insufficient_scope: 403,
  weak_password: 403,
  /** An address a link's gate refuses (its deny list, or not on its allow list): api.md, "Document engagement on link shares". */
  link_denied: 403,
  not_found: 404,
  link_not_found: 404,
  template_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  // An invitation key that worked once: the page tells expired and used apart.
  invitation_expired: 410,
  invitation_used: 410,
  /** A link (share or drop link) past its expiration date: it stays listed but serves nothing. */
  link_expired: 410,
  /** A single-download link that has served its download. */
  link_exhausted: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  locked: 423,
  too_many_requests: 429,
  // Signatures (api.md, "Signature requests"): an illegal move of a request's state machine.
  signature_state: 409,
  // A signing link whose request ended: used, expired, cancelled, refused.
  signing_done: 410,
  signing_expired: 410,
  signing_cancelled: 410,
  signing_refused: 410,
  // A PDF that cannot be signed, and a level the built-in signer does not offer.
  pdf_encrypted: 422,
  pdf_damaged: 422,
  /** Scripts or automatic actions (OpenAction, /AA, JavaScript, Launch...): refused for signing. */
  pdf_active_content: 422,
  level_unsupported: 422,
  // Workflow instances (api.md, "Workflow instances"): a validator's link once the instance is closed or cancelled.
  workflow_closed: 410,
  workflow_cancelled: 410,
  internal_error: 500,
  /** An answer outside its operation's response schema, under tests and `next dev` only (http/check-response.ts). */
  response_mismatch: 500,
  smtp_failed: 502,
  service_unavailable: 503,
  insufficient_storage: 507,
} as const;

export type ErrorCode = keyof typeof STATUS;
export type ErrorBody = { error: string; code: string; details?: unknown };

const APP_ERROR = Symbol.for("coffre.AppError");

/** The one error type services throw; its code decides the HTTP status. */
export class AppError extends Error {
  readonly [APP_ERROR] = true;

  /**
   * server.ts bundles its own copy of these modules beside Next's, and objects on globalThis (the
   * blob store, tus) may come from either: an AppError is recognised by its brand, not its class.
   */
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[APP_ERROR] === true;
  }

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
  get status(): number {
    return STATUS[this.code];
  }
}

export const notFound = (what = "Resource") => new AppError("not_found", `${what} not found`);
export const forbidden = (message = "You do not have the right to do this") => new AppError("forbidden", message);

const STORAGE_CODES: Record<StorageErrorCode, ErrorCode> = { not_found: "not_found", over_limit: "insufficient_storage", full: "insufficient_storage" };

/** A blob store's refusal (lib/storage) as the contract's error; anything else unchanged. */
export function fromStorageError(error: unknown): unknown {
  return error instanceof StorageError ? new AppError(STORAGE_CODES[error.code], error.message) : error;
}

export function errorResponse(status: number, body: ErrorBody, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

/** Turns anything thrown into the contract's error body (api.md: {error, code, details}). */
export function toErrorResponse(thrown: unknown): Response {
  const answer = toErrorAnswer(thrown);
  return errorResponse(answer.status, answer.body, answer.headers);
}

export type ErrorAnswer = { status: number; body: ErrorBody; headers?: Record<string, string> };

/**
 * What toErrorResponse answers, for writers of raw Node responses. Only what it cannot classify
 * is a crash: logged here, once, with a request id; an expected answer (an AppError of any
 * status, a 507 or a 503 from the database) is never logged as one.
 */
export function toErrorAnswer(thrown: unknown): ErrorAnswer {
  const error = fromStorageError(thrown);
  if (error instanceof AppError) {
    return { status: error.status, body: { error: error.message, code: error.code, details: error.details }, headers: error.headers };
  }
  if (error instanceof ZodError) {
    const details = error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    const fields = details.map((d) => d.path || "(body)").join(", ");
    return { status: 400, body: { error: `Invalid request: ${fields}`, code: "invalid_request", details } };
  }
  const pg = postgresError(error);
  if (pg?.code === "23505") return { status: 409, body: { error: "This already exists", code: "conflict" } };
  // Class 22: the value itself cannot be stored (a NUL or an invalid byte in text, a number out of
  // range, a string over its column). Input that slipped past the schemas, not a server fault:
  // a 400, and neither the query nor its parameters reach the log.
  if (pg?.code && INVALID_VALUE.has(pg.code)) {
    return { status: 400, body: { error: "Invalid request: a value cannot be stored as given", code: "invalid_request" } };
  }
  if (pg?.code === "55P03") return { status: 423, body: { error: "The resource is busy, try again", code: "locked" } };
  if (pg?.code === "53100") return { status: 507, body: { error: "Storage is full", code: "insufficient_storage" } };
  if (isUnavailable(error, pg?.code)) {
    return { status: 503, body: { error: "The service is temporarily unavailable", code: "service_unavailable" }, headers: { "Retry-After": "5" } };
  }
  const requestId = randomUUID();
  console.error(`[coffre] request ${requestId} failed:`, error);
  return { status: 500, body: { error: "Internal error", code: "internal_error", details: { request_id: requestId } } };
}

function postgresError(error: unknown): { code?: string } | undefined {
  let e: unknown = error;
  // Drizzle wraps driver errors in DrizzleQueryError with the original as `cause`.
  for (let depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return { code };
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

const INVALID_VALUE = new Set(["22001", "22003", "22007", "22008", "22021", "22P02", "22P05"]);

const UNAVAILABLE_NODE = new Set(["ECONNREFUSED", "ECONNRESET", "CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECT_TIMEOUT", "CONNECTION_DESTROYED", "EPIPE", "ETIMEDOUT"]);

function isUnavailable(error: unknown, pgCode?: string): boolean {
  if (pgCode && (pgCode.startsWith("08") || pgCode === "57P01" || pgCode === "57P02" || pgCode === "57P03")) return true;
  let e: unknown = error;
  for (let depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && UNAVAILABLE_NODE.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
