import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { EVENTS, Server } from "@tus/server";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db";
import { uploads } from "@/db/schema";
import { AppError, toErrorAnswer } from "../errors";
import { nodeBodySource } from "../http/body-source";
import { detachedBody } from "../http/drain-body";
import { sendResponse, toWebRequest } from "../http/node-route";
import { authenticate } from "../http/route";
import { HashingFileStore } from "./hashing-file-store";
import { dropUpload, tusDir, tusUploadId, type UploadRow } from "./upload-sessions";

/** Where the tus 1.0.0 server is mounted (api.md); its `path` must equal the route prefix (environment.md, trap 7). */
export const TUS_PATH = "/api/tus";

type TusError = { status_code: number; body: string };

const state = globalThis as unknown as { __coffreTus?: { server: Server; store: HashingFileStore } };

/**
 * The tus server, one per process. Its data lives in the blob store's work area (files and
 * their .json info), so an upload resumes across restarts; the MD5 is computed as bytes arrive,
 * so finishing is a rename. Every
 * request is authenticated like route() and must belong to a live session of the caller,
 * opened by POST /file/tus, whose key is the `token` metadata of the creation request.
 */
export function getTus(): { server: Server; store: HashingFileStore } {
  if (state.__coffreTus) return state.__coffreTus;
  const store = new HashingFileStore({ directory: tusDir() });
  const server = new Server({
    path: TUS_PATH,
    datastore: store,
    relativeLocation: true,
    // Same origin only, like the rest of the API: no CORS headers for other sites.
    allowedOrigins: () => false,
    namingFunction: (_req, metadata) => {
      const token = metadata?.token;
      if (!token) throw tusError(new AppError("invalid_request", "Upload-Metadata must carry `token` with the session key from POST /api/file/tus"));
      return tusUploadId(token);
    },
    onIncomingRequest: async (req, uploadId) => {
      const session = await findCallerSession(req, uploadId);
      if (req.method === "PATCH") {
        const db = await getDb();
        await db.update(uploads).set({ updatedAt: new Date() }).where(eq(uploads.id, session.id));
      }
    },
    onUploadCreate: async (req, upload) => {
      const session = await findCallerSession(req, upload.id);
      if (upload.sizeIsDeferred || upload.size !== session.size) {
        throw tusError(new AppError("invalid_request", `Upload-Length must be the size declared when the session was opened (${session.size})`));
      }
      // The session key is a credential: it never reaches the .json info file on disk.
      const metadata = { ...upload.metadata };
      delete metadata.token;
      return { metadata };
    },
    onResponseError: async (_req, error) => {
      if ("status_code" in error) return undefined;
      const answer = toErrorAnswer(error);
      return { status_code: answer.status, body: JSON.stringify(answer.body) };
    },
  });
  // A terminated upload (tus DELETE, the web client's cancel) gives its reservation back at once.
  server.on(EVENTS.POST_TERMINATE, (_req: Request, _res: Response, id: string) => {
    void getDb()
      .then((db) => dropUpload(db, id))
      .catch((error) => console.error("[coffre] tus: could not drop a terminated upload:", error));
  });
  state.__coffreTus = { server, store };
  return state.__coffreTus;
}

/** The caller's live tus session with this id; anything else is a 404 (never leak other sessions). */
async function findCallerSession(req: Request, uploadId: string): Promise<UploadRow> {
  try {
    const db = await getDb();
    const actor = await authenticate(db, req, "user");
    const [session] = await db
      .select()
      .from(uploads)
      .where(and(eq(uploads.id, uploadId), eq(uploads.kind, "tus"), eq(uploads.userId, actor!.user.id)))
      .limit(1);
    if (!session) throw new AppError("not_found", "Upload not found");
    return session;
  } catch (error) {
    throw tusError(error);
  }
}

/** tus answers thrown `{status_code, body}` objects as they are; ours carry the contract's error body. */
function tusError(error: unknown): TusError {
  if (error && typeof error === "object" && "status_code" in error) return error as TusError;
  // Classified (and, when unexpected, logged) as every route does: a full store is a 507, a database away a 503.
  const answer = toErrorAnswer(error);
  return { status_code: answer.status, body: JSON.stringify(answer.body) };
}

const TUS_CODES: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  410: "not_found",
  412: "precondition_failed",
  413: "payload_too_large",
  415: "unsupported_media_type",
  460: "checksum_mismatch",
  500: "internal_error",
  503: "service_unavailable",
};

/**
 * Runs a tus request under Next. tus reads the body through Readable.fromWeb and may give up
 * half-way (a refused PATCH): it gets a detached view, and the real body is drained, never
 * cancelled (trap 16).
 */
export async function handleTusRequest(req: Request): Promise<Response> {
  const detached = hasBody(req.method) ? detachedBody(req) : null;
  const forTus = detached?.stream ? new Request(req.url, { method: req.method, headers: req.headers, body: detached.stream, duplex: "half", signal: req.signal } as RequestInit) : req;
  try {
    return await answerTus(forTus);
  } finally {
    detached?.discard();
  }
}

/**
 * Runs a tus request on the raw Node request (server.ts): the bytes go from the socket to the
 * store through one view of the request, without Next. Refused half-way, the rest is read and
 * thrown away, so the answer arrives whole.
 */
export async function tusNodeHandler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const request = toWebRequest(req);
  const source = nodeBodySource(req, request.headers);
  const body = hasBody(request.method) ? (Readable.toWeb(source.body) as ReadableStream<Uint8Array>) : undefined;
  const forTus = body ? new Request(request.url, { method: request.method, headers: request.headers, body, duplex: "half" } as RequestInit) : request;
  let response: Response;
  try {
    response = await answerTus(forTus);
  } finally {
    source.release();
  }
  await sendResponse(res, response, request.method);
}

const hasBody = (method: string) => method === "POST" || method === "PATCH";

/** tus answers errors as plain text; they get the contract's error body, tus's own headers kept. */
async function answerTus(req: Request): Promise<Response> {
  const response = await getTus().server.handleWeb(req);
  if (response.status < 400) return response;
  const text = await response.text();
  let body = text;
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (typeof parsed.error !== "string") throw new Error("not ours");
  } catch {
    body = JSON.stringify({ error: text.trim() || "Upload error", code: TUS_CODES[response.status] ?? (response.status >= 500 ? "internal_error" : "invalid_request") });
  }
  const headers = new Headers(response.headers);
  headers.set("Content-Type", "application/json");
  headers.set("Cache-Control", "no-store");
  headers.delete("Content-Length");
  return new Response(body, { status: response.status, headers });
}
