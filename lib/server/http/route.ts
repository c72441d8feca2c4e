import "server-only";
import type { z } from "zod";
import { getDb, type Db } from "@/db";
import { applyAsId, authenticateToken } from "../auth/authenticate";
import { assertScope } from "../auth/scopes";
import { readWebSessionToken } from "../auth/web-session";
import type { Actor, AuthedCtx, Ctx, RequestInfo } from "../context";
import { resolveLinkVisitor, type LinkKind, type LinkSpec, type VisitOf } from "../links/resolve-link-visitor";
import { assertSecondFactorEnrolled } from "../mfa/enforce-enrolment";
import { AppError, toErrorResponse } from "../errors";
import { CHECK_RESPONSES, checkResponse, type ResponseSpec } from "./check-response";
import { neededScope } from "./api-areas";
import { webBodySource, type BodySource } from "./body-source";
import { readJson } from "./read-json";
import { refuseNul } from "./refuse-nul";
import { requestInfo } from "./request-info";

/** "link": a public link's visitor, by the path's `key` and the link's access token (resolve-link-visitor.ts); no account. */
export type Auth = "user" | "admin" | "optional" | "none" | "link";
type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

type Spec<P, Q, B, K extends LinkKind = LinkKind, R extends ResponseSpec | undefined = ResponseSpec | undefined> = {
  /** Default "user": a valid token or web session is required. */
  auth?: Auth;
  params?: P;
  query?: Q;
  body?: B;
  /** With auth "link": which kind of link the path's `key` names. */
  link?: LinkSpec<K>;
  /** A JSON body larger than this many bytes is a 413 (default and maximum: JSON_BODY_LIMIT, 1 MiB). */
  bodyLimit?: number;
  /**
   * The success answer's schema (lib/contracts), or one per status where they differ: checked on
   * every 2xx JSON answer under tests and `next dev` (check-response.ts), and the type the service
   * must return.
   */
  response?: R;
};

/** What a service may return under a response schema: its input type (a string id where it says int is a type error), or a Response, or nothing (204). */
type Answer<R> = R extends z.ZodType
  ? z.input<R> | Response | undefined | void
  : R extends { 200: infer S extends z.ZodType }
    ? z.input<S> | Response | undefined | void
    : R extends ResponseSpec
      ? Response | undefined | void
      : unknown;

/** The context of a link visitor's operation: the resolved link instead of an actor. */
export type LinkCtx<K extends LinkKind = LinkKind> = Ctx & { link: VisitOf<K> };

type Input<A extends Auth, P, Q, B, K extends LinkKind = LinkKind> = {
  ctx: A extends "user" | "admin" ? AuthedCtx : A extends "link" ? LinkCtx<K> : Ctx;
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  /** The request; under the fast paths of server.ts, its headers only (the bytes are in `source`). */
  req: Request;
  /** The raw body, for the routes that stream it (uploads); taken only when read. */
  source: BodySource;
};

type Fn<A extends Auth, P, Q, B, K extends LinkKind = LinkKind, R = undefined> = (input: Input<A, P, Q, B, K>) => Promise<Answer<R>> | Answer<R>;

/** An operation as both servers mount it: route() under Next, nodeRoute() on the raw request. */
export type Endpoint<A extends Auth, P, Q, B, K extends LinkKind = LinkKind, R extends ResponseSpec | undefined = undefined> = { spec: Spec<P, Q, B, K, R> & { auth?: A }; fn: Fn<A, P, Q, B, K, R> };

export type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type Handler = ((req: Request, context: RouteContext) => Promise<Response>) & {
  /** What route() was given (auth, zod schemas): read by the OpenAPI document and the route-walking tests. */
  spec?: Spec<unknown, unknown, unknown> & { auth?: Auth };
  /** The operation itself, which server.ts runs on the raw request (node-route.ts) instead of calling the handler. */
  endpoint?: Endpoint<Auth, any, any, any, any, any>;
};

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Names an operation that server.ts also answers on the raw request (see nodeRoute). */
export function endpoint<A extends Auth = "user", P extends Schema | undefined = undefined, Q extends Schema | undefined = undefined, B extends Schema | undefined = undefined, K extends LinkKind = LinkKind, R extends ResponseSpec | undefined = undefined>(
  spec: Spec<P, Q, B, K, R> & { auth?: A },
  fn: Fn<A, P, Q, B, K, R>,
): Endpoint<A, P, Q, B, K, R> {
  return { spec, fn };
}

/**
 * Parses and authenticates a request, calls one service, serialises its result:
 * undefined → 204, a Response → as is, anything else → 200 JSON. Every failure becomes the
 * contract's error body.
 */
export function route<A extends Auth = "user", P extends Schema | undefined = undefined, Q extends Schema | undefined = undefined, B extends Schema | undefined = undefined, K extends LinkKind = LinkKind, R extends ResponseSpec | undefined = undefined>(
  spec: Spec<P, Q, B, K, R> & { auth?: A },
  fn: Fn<A, P, Q, B, K, R>,
): Handler {
  const handler = async (req: Request, context: RouteContext) => {
    const source = webBodySource(req);
    try {
      return await runEndpoint({ spec, fn }, req, await context?.params, source);
    } finally {
      // A body refused before it was read (401, 403, 404...), or left half-read, is still arriving.
      source.release();
    }
  };
  return Object.assign(handler, { spec, endpoint: { spec, fn } as Endpoint<Auth, any, any, any, any, any> });
}

/** The steps every request goes through, whichever server received it, as a web Response. */
export async function runEndpoint<A extends Auth, P extends Schema | undefined, Q extends Schema | undefined, B extends Schema | undefined, K extends LinkKind, R extends ResponseSpec | undefined>(
  operation: Endpoint<A, P, Q, B, K, R>,
  req: Request,
  rawParams: Record<string, unknown> | undefined,
  source: BodySource,
): Promise<Response> {
  try {
    return toResponse(await runOperation(operation, req, rawParams, source));
  } catch (error) {
    return toErrorResponse(error);
  }
}

/**
 * Parses and authenticates a request and calls its service: the service's result, or what it
 * threw (the caller turns it into the contract's error body).
 */
export async function runOperation<A extends Auth, P extends Schema | undefined, Q extends Schema | undefined, B extends Schema | undefined, K extends LinkKind, R extends ResponseSpec | undefined>(
  { spec, fn }: Endpoint<A, P, Q, B, K, R>,
  req: Request,
  rawParams: Record<string, unknown> | undefined,
  source: BodySource,
): Promise<unknown> {
  const db = await getDb();
  const request = requestInfo(req);
  const url = new URL(req.url);
  const actor = await authenticate(db, req, spec.auth ?? "user", { request, url });
  const ctx: Ctx = { db, actor, request };
  const rawQuery = Object.fromEntries(url.searchParams);
  const rawBody = spec.body ? await readJson(source, spec.bodyLimit) : undefined;
  refuseNul(rawParams, "params");
  refuseNul(rawQuery, "query");
  refuseNul(rawBody, "body");
  const params = spec.params ? spec.params.parse(rawParams) : undefined;
  const query = spec.query ? spec.query.parse(rawQuery) : undefined;
  const body = spec.body ? spec.body.parse(rawBody) : undefined;
  // After the input's own checks, so a malformed request is a 400 before the link is looked up, as before.
  const link = spec.auth === "link" ? await resolveLinkVisitor(db, req, rawParams?.key, spec.link) : undefined;
  const result = await fn({ ctx: link ? { ...ctx, link } : ctx, params, query, body, req, source } as Input<A, P, Q, B, K>);
  // Both servers answer through here, so `next dev`, vitest and TEST_VIA=node check the same way.
  if (CHECK_RESPONSES) await checkResponse(spec.response, result, req.method, url.pathname);
  return result;
}

export function toResponse(result: unknown): Response {
  if (result instanceof Response) return result;
  if (result === undefined || result === null) return new Response(null, { status: 204 });
  return Response.json(result, { headers: { "Cache-Control": "no-store" } });
}

export const created = (data: unknown) => Response.json(data, { status: 201 });

/**
 * The caller of a request, as route() sees it; exported for handlers outside route() (tus, pages
 * downloads). `known`: what the caller already parsed from the request, not parsed twice.
 */
export async function authenticate(db: Db, req: Request, auth: Auth, known: { request?: RequestInfo; url?: URL } = {}): Promise<Actor | null> {
  if (auth === "none" || auth === "link") return null;
  const bearer = bearerToken(req);
  const cookieToken = bearer ? null : await readWebSessionToken(req);
  const token = bearer ?? cookieToken;
  if (!token) {
    if (auth === "optional") return null;
    throw new AppError("unauthorized", "Authentication required: send Authorization: Bearer <token>");
  }
  if (cookieToken && !SAFE_METHODS.has(req.method)) assertSameOrigin(req);
  const session = await authenticateToken(db, token, (known.request ?? requestInfo(req)).ip);
  const { pathname } = known.url ?? new URL(req.url);
  // OAuth2 tokens reach only the areas their scopes name (api.md, "OAuth2"), fast paths included.
  if (session.scope !== null) assertScope(session.scope, neededScope(req.method, pathname));
  await assertSecondFactorEnrolled(db, session, req, pathname);
  const asId = req.headers.get("asid") ?? req.headers.get("as");
  // An OAuth2 token acting as someone else needs admin.readwrite besides the route's area (issue 16).
  if (asId?.trim() && asId.trim() !== String(session.user.id)) assertScope(session.scope, { area: "admin", access: "readwrite" });
  const actor = await applyAsId(db, session, asId);
  if (auth === "admin" && actor.user.role !== 3) throw new AppError("forbidden", "Administrators only");
  return actor;
}

function bearerToken(req: Request): string | null {
  const header = req.headers.get("authorization");
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match ? match[1] : null;
}

/** Cookie-authenticated changes must come from our own pages (CSRF). */
function assertSameOrigin(req: Request) {
  const origin = req.headers.get("origin");
  const fetchSite = req.headers.get("sec-fetch-site");
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  const allowed = new Set<string>();
  if (host) allowed.add(host.toLowerCase());
  // Only an absolute BASE_URL names our origin (vitest sets it to "/": environment.md, trap 8).
  const base = process.env.BASE_URL?.trim() ?? "";
  if (URL.canParse(base)) allowed.add(new URL(base).host.toLowerCase());
  if (origin) {
    let originHost = "";
    try {
      originHost = new URL(origin).host.toLowerCase();
    } catch {}
    if (allowed.has(originHost)) return;
  } else if (fetchSite === "same-origin") {
    return;
  }
  throw new AppError("forbidden", "Cross-origin request refused");
}
