import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { getDb, type Db } from "@/db";
import { downloadParams, downloadQuery, tokenDownloadQuery } from "@/lib/contracts/uploads";
import { AppError } from "../errors";
import { appUrl } from "../mail/app-url";
import { prepareShareDownload } from "../shares/share-download";
import { sendError, toWebRequest } from "../http/node-route";
import { authenticate } from "../http/route";
import { requestInfo } from "../http/request-info";
import { accelRedirect } from "./accel-redirect";
import { openBlob } from "./send-blob";
import { prepareSearchableDownload } from "../texts/searchable-download";
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
      const handedOver = accelRedirect(prepared);
      if (handedOver) {
        res.writeHead(handedOver.status, handedOver.headers).end();
        await settle(prepared, true);
        return;
      }
      // Opened before the headers go out, so a missing blob is still a clean 404.
      const blob = prepared.made ?? (prepared.body ? await openBlob(prepared.body.blobId, prepared.body.range) : null);
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

/** GET /api/file/(fileId)/download (query `latest`, `searchable`, header `Range`). */
export const downloadById = nodeDownloadHandler(async (db, request, url, http) => {
  const { fileId } = downloadParams.parse({ fileId: /\/file\/([^/]+)\/download\/?$/.exec(url.pathname)?.[1] });
  const { latest, searchable } = downloadQuery.parse(Object.fromEntries(url.searchParams));
  const actor = await authenticate(db, request, "user");
  const ctx = { db, actor: actor!, request: http.info };
  return searchable ? prepareSearchableDownload(ctx, fileId, latest, http) : prepareDownloadById(ctx, fileId, latest, http);
});

/** GET /api/file/download?token= (a file token of type download, a user's or a link share's; no other authentication). */
export const downloadByToken = nodeDownloadHandler(async (db, request, url, http) => {
  const { token, latest } = tokenDownloadQuery.parse(Object.fromEntries(url.searchParams));
  return (await prepareShareDownload(db, token, http, appUrl(request))) ?? prepareDownloadByToken(db, token, latest, http);
});
