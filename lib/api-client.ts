import { z } from "zod";
import type { SignInFailure } from "@/lib/contracts/sign-in";

// zod 4 probes for eval (`Function("")`) before its first object parse, to compile faster
// parsers. Our pages' CSP forbids eval, so in the browser the probe is a reported violation: tell
// zod not to try (lib/server/http/security-headers.ts).
if (typeof window !== "undefined") z.config({ jitless: true });

// The error body every /api route emits (api.md: {error, code, details?}).
const errorBody = z.object({ error: z.string(), code: z.string(), details: z.unknown().optional() });

/** A failed call: the HTTP status and the server's code; status 0 means the server was not reached. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** Field paths named by a 400 invalid_request ([{path, message}]). */
  get fields(): string[] {
    if (!Array.isArray(this.details)) return [];
    return this.details.flatMap((d) => (typeof d?.path === "string" ? [d.path] : []));
  }
}

type Body = { json: unknown } | { form: FormData } | undefined;

/** `keepalive`: the request outlives the page that sent it (a viewer's last page times as it closes). */
type RequestOptions = { keepalive?: boolean };

/** Whom an administrator or manager acts as ("Act as" in the console): kept for this tab only. */
export type ActingAs = { id: string; name: string };

const ACTING_KEY = "coffre.actingAs";
const ACTING_EVENT = "coffre:acting-as";

function readActingRaw(): string | null {
  if (typeof window === "undefined") return null;
  try {
    return window.sessionStorage.getItem(ACTING_KEY);
  } catch {
    return null;
  }
}

/** The acting state as stored (a stable string, so useSyncExternalStore can compare snapshots). */
export const actingAsSnapshot = readActingRaw;

export function parseActingAs(raw: string | null): ActingAs | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<ActingAs>;
    return typeof value.id === "string" && /^\d+$/.test(value.id) ? { id: value.id, name: String(value.name ?? value.id) } : null;
  } catch {
    return null;
  }
}

export const getActingAs = () => parseActingAs(readActingRaw());

/**
 * From now on every API call of this tab carries `AsId: <id>` (the server decides whether the
 * caller may: administrators anyone, managers the users of their groups). sessionStorage, not
 * localStorage: another tab, or the browser reopened, is the real user again.
 */
export function setActingAs(who: ActingAs | null) {
  if (who) window.sessionStorage.setItem(ACTING_KEY, JSON.stringify(who));
  else window.sessionStorage.removeItem(ACTING_KEY);
  window.dispatchEvent(new Event(ACTING_EVENT));
}

export function subscribeActingAs(onChange: () => void): () => void {
  window.addEventListener(ACTING_EVENT, onChange);
  window.addEventListener("storage", onChange);
  return () => {
    window.removeEventListener(ACTING_EVENT, onChange);
    window.removeEventListener("storage", onChange);
  };
}

/**
 * The one place the web client calls fetch. Same-origin requests carry the session cookie and,
 * on POST/PUT/DELETE, the Origin header the server's CSRF check wants.
 */
async function request(method: string, path: string, body?: Body, options?: RequestOptions): Promise<Response> {
  const acting = getActingAs();
  const init: RequestInit = { method, credentials: "same-origin", keepalive: options?.keepalive, headers: { Accept: "application/json", ...(acting ? { AsId: acting.id } : {}) } };
  if (body && "json" in body) {
    init.body = JSON.stringify(body.json);
    init.headers = { ...init.headers, "Content-Type": "application/json" };
  } else if (body && "form" in body) {
    init.body = body.form;
  }
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError(0, "network_error", (error as Error).message);
  }
  if (!response.ok) throw await toApiError(response);
  return response;
}

async function toApiError(response: Response): Promise<ApiError> {
  const retry = Number(response.headers.get("Retry-After"));
  const retryAfter = Number.isFinite(retry) && retry > 0 ? retry : undefined;
  return apiErrorOf(response.status, await response.json().catch(() => null), response.statusText, retryAfter);
}

/** A failed answer as an ApiError: the contract's error body when it is one, else the bare status. */
export function apiErrorOf(status: number, body: unknown, statusText: string, retryAfter?: number): ApiError {
  const parsed = errorBody.safeParse(body);
  if (parsed.success) return new ApiError(status, parsed.data.code, parsed.data.error, parsed.data.details, retryAfter);
  return new ApiError(status, `http_${status}`, statusText || "Request failed", undefined, retryAfter);
}

/**
 * What an operation answers, named by its response schema in lib/contracts (`typeof shareResponse`):
 * the schema's output type (response schemas transform nothing, so it is the JSON the server's
 * response check accepts; the recursive ones, folders and timelines, declare only it). Callers import the schema with
 * `import type`: only its type reaches the browser, the schema itself stays on the server, so the
 * bundle carries no contract and no answer is parsed twice (the server checks them under tests).
 */
export type Answer<S extends Schema> = S extends z.ZodType ? z.output<S> : z.output<S[keyof S]>;

/** A response schema, or one per status where they differ (route()'s `response`): the answer is any of them. */
type Schema = z.ZodType | { [status: number]: z.ZodType };

/** A call whose answer the caller does not read (a 204, or a body it ignores). */
type Ignored = z.ZodUnknown;

/** JSON bodies parsed; anything else (the picture upload answers "OK") as text. */
async function json<S extends Schema>(response: Response): Promise<Answer<S>> {
  if (response.status === 204) return undefined as Answer<S>;
  const isJson = /\bjson\b/.test(response.headers.get("content-type") ?? "");
  return (isJson ? await response.json() : await response.text()) as Answer<S>;
}

/** Each call names the schema of what it reads (`api.get<typeof fileResponse>(...)`): a hand-written type does not fit (tests/unit/typed-client.test.ts). */
export const api = {
  get: async <S extends Schema>(path: string) => json<S>(await request("GET", path)),
  post: async <S extends Schema = Ignored>(path: string, body?: unknown, options?: RequestOptions) => json<S>(await request("POST", path, { json: body ?? {} }, options)),
  put: async <S extends Schema = Ignored>(path: string, body: unknown) => json<S>(await request("PUT", path, { json: body })),
  /** Some deletions answer a body (a trash item): callers that want it name its schema. */
  delete: async <S extends Schema = Ignored>(path: string, body?: unknown) => json<S>(await request("DELETE", path, body === undefined ? undefined : { json: body })),
  /** Multipart upload; the browser streams the file. */
  upload: async <S extends Schema = Ignored>(path: string, form: FormData) => json<S>(await request("POST", path, { form })),
  /** A binary resource, or null when it does not exist (404). */
  getBlob: async (path: string): Promise<Blob | null> => {
    try {
      return await (await request("GET", path)).blob();
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  },
};

/** A sign-in whose password was right and that waits for its second step (lib/server/mfa). */
export type SecondStep = { mfaToken: string; methods: string[] };

/** Why the web sign-in failed; retryAfter (seconds) comes with too_many_requests, `secondStep` with mfa_required. */
export class SignInError extends Error {
  constructor(
    readonly reason: SignInFailure | "network_error",
    readonly retryAfter?: number,
    readonly secondStep?: SecondStep,
  ) {
    super(reason);
    this.name = "SignInError";
  }
}

const AUTH = "/api/auth";

async function csrfToken(): Promise<string> {
  // next-auth's own endpoint, outside the contract: its answer has no schema in lib/contracts.
  const { csrfToken } = (await (await request("GET", `${AUTH}/csrf`)).json()) as { csrfToken: string };
  return csrfToken;
}

/** next-auth's endpoints take a form post and answer {url}, whose `error` parameter says what failed. */
async function postAuthForm(path: string, fields: Record<string, string>): Promise<{ status: number; url: URL | null }> {
  const body = new URLSearchParams({ ...fields, csrfToken: await csrfToken(), json: "true" });
  let response: Response;
  try {
    response = await fetch(`${AUTH}/${path}`, { method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body });
  } catch {
    throw new SignInError("network_error");
  }
  const data = (await response.json().catch(() => null)) as { url?: string } | null;
  return { status: response.status, url: data?.url ? new URL(data.url, window.location.origin) : null };
}

/** Signs in with the credentials provider; the session cookie is set on success. */
export async function signInWithPassword(login: string, password: string): Promise<void> {
  const { status, url } = await postAuthForm("callback/credentials", { login, password });
  const error = url?.searchParams.get("error");
  if (status < 400 && !error) {
    setActingAs(null);
    return;
  }
  throw signInFailure(error);
}

/** Turns next-auth's `error` parameter into a SignInError (`reason:detail:detail`). */
function signInFailure(error: string | null | undefined): SignInError {
  const [reason, first, second] = (error ?? "internal_error").split(":");
  if (reason === "mfa_required" && first) return new SignInError("mfa_required", undefined, { mfaToken: first, methods: (second ?? "").split(",").filter(Boolean) });
  const known: SignInFailure[] = ["wrong_credentials", "account_inactive", "account_expired", "too_many_requests", "connection_not_allowed", "internal_error", "wrong_code", "mfa_expired", "directory_unavailable"];
  return new SignInError(known.includes(reason as SignInFailure) ? (reason as SignInFailure) : "internal_error", Number(first) || undefined);
}

/** The web sign-in's second step: a code (otp, sms, recovery) or a security key's answer. */
export async function signInWithSecondFactor(input: { mfaToken: string; method: string; code?: string; response?: unknown }): Promise<void> {
  const fields: Record<string, string> = { mfa_token: input.mfaToken, method: input.method };
  if (input.code !== undefined) fields.code = input.code;
  if (input.response !== undefined) fields.response = JSON.stringify(input.response);
  const { status, url } = await postAuthForm("callback/credentials", fields);
  const error = url?.searchParams.get("error");
  if (status < 400 && !error) {
    setActingAs(null);
    return;
  }
  throw signInFailure(error);
}

/** Revokes the session server-side (audited DELETE /api/auth), then clears the next-auth cookie. */
export async function signOut(): Promise<void> {
  // Whoever signs in next in this tab starts as themselves.
  setActingAs(null);
  await api.delete(AUTH).catch(() => {});
  await postAuthForm("signout", {}).catch(() => {});
}
