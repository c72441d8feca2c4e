import type { IncomingMessage, ServerResponse } from "node:http";
import { getDb, type Db } from "@/db";
import { downloadParams, downloadQuery, tokenDownloadQuery } from "@/lib/contracts/uploads";
import { AppError, toErrorResponse } from "../errors";
import { appUrl } from "../mail/app-url";
import { prepareShareDownload } from "../shares/share-download";
import { authenticate, requestInfo } from "../http/route";
import { openBlob } from "./send-blob";
import { prepareDownloadById, prepareDownloadByToken, type DownloadRequest, type PreparedDownload } from "./prepare-download";

type Prepare = (db: Db, request: Request, url: URL, http: DownloadRequest) => Promise<PreparedDownload>;

/**
 * Downloads are served on Node's own response, not through an App Router handler, because Next
 * drops `Content-Length` from App Router responses (environment.md, trap 4): the pages/api
 * routes call these. Authentication and errors are those of route(): the same services, the
 * same JSON error body.
 */
function nodeDownloadHandler(prepare: Prepare) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? "GET";
    let prepared: PreparedDownload | undefined;
    try {
      if (method !== "GET" && method !== "HEAD") {
        throw new AppError("method_not_allowed", `Method ${method} is not allowed here`, undefined, { Allow: "GET, HEAD" });
      }
      const url = new URL(req.url ?? "/", "http://localhost");
      const request = toWebRequest(req, url);
      const http: DownloadRequest = {
        method,
        range: request.headers.get("range"),
        ifNoneMatch: request.headers.get("if-none-match"),
        ifRange: request.headers.get("if-range"),
        info: requestInfo(request),
      };
      prepared = await prepare(await getDb(), request, url, http);
      // Opened before the headers go out, so a missing blob is still a clean 404.
      const blob = prepared.body ? await openBlob(prepared.body.blobId, prepared.body.range) : null;
      res.writeHead(prepared.status, prepared.headers);
      if (!blob) {
        res.end();
        await settle(prepared, true);
        return;
      }
      // false when the client went away mid-download: nothing to answer any more.
      await settle(prepared, await blob.send(res));
    } catch (error) {
      if (prepared) await settle(prepared, false);
      await sendError(res, method, error);
    }
  };
}

/** After the answer: a failure there must not turn a served download into an error. */
async function settle(prepared: PreparedDownload, complete: boolean) {
  try {
    await prepared.settle?.(complete);
  } catch (error) {
    console.error("[coffre] settling a download failed:", error);
  }
}

/** GET /api/file/(fileId)/download (query `latest`, header `Range`). */
export const downloadById = nodeDownloadHandler(async (db, request, url, http) => {
  const { fileId } = downloadParams.parse({ fileId: /\/file\/([^/]+)\/download\/?$/.exec(url.pathname)?.[1] });
  const { latest } = downloadQuery.parse(Object.fromEntries(url.searchParams));
  const actor = await authenticate(db, request, "user");
  return prepareDownloadById({ db, actor: actor!, request: http.info }, fileId, latest, http);
});

/** GET /api/file/download?token= (a file token of type download, a user's or a link share's; no other authentication). */
export const downloadByToken = nodeDownloadHandler(async (db, request, url, http) => {
  const { token, latest } = tokenDownloadQuery.parse(Object.fromEntries(url.searchParams));
  return (await prepareShareDownload(db, token, http, appUrl(request))) ?? prepareDownloadByToken(db, token, latest, http);
});

/** Only the headers: authentication and conditions need nothing else, and the body is never read. */
export function toWebRequest(req: IncomingMessage, url: URL): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  // Forwarded addresses are read from the headers; the socket's own peer comes last, as Next adds it.
  const peer = req.socket?.remoteAddress;
  if (peer && !headers.has("x-forwarded-for")) headers.set("x-forwarded-for", peer);
  return new Request(new URL(url.pathname + url.search, `http://${req.headers.host ?? "localhost"}`), { method: req.method, headers });
}

/** The contract's error body on a Node response (or a cut connection once bytes went out). */
export async function sendError(res: ServerResponse, method: string, error: unknown) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const response = toErrorResponse(error);
  const body = Buffer.from(await response.text());
  const headers: Record<string, string> = Object.fromEntries(response.headers);
  headers["Content-Length"] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(method === "HEAD" ? undefined : body);
}
