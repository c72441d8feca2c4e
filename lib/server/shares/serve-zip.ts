import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { getDb } from "@/db";
import { attachmentDisposition } from "../downloads/content-disposition";
import { sendError, toWebRequest } from "../http/node-route";
import { AppError } from "../errors";
import { isWatermarked } from "../engagement/watermark-text";
import { parseEnvironment } from "../events/record-event";
import { requestInfo } from "../http/request-info";
import { appUrl } from "../mail/app-url";
import { resolveLinkVisitor } from "../links/resolve-link-visitor";
import { recordShareAccess } from "./record-access";
import { queueDownloadReceipt } from "./receipt-mail";
import { wantsReceipt } from "./share-flags";
import { assertShareAllows } from "./share-tokens";
import { claimDownload, releaseDownload } from "./single-download";
import { streamZip } from "../zip/stream-zip";
import { listZipEntries } from "./zip-entries";

/**
 * GET /api/zip/share/(key): the whole share as one zip, streamed as it is built (yazl) with no
 * temporary copy: each file's blob is opened only when its turn comes, and the response's
 * backpressure paces the reads. The size is unknown beforehand, so the answer is chunked.
 * Preview-only links never get it (403); a single-download link is claimed by it like by a
 * download, and released if the transfer breaks.
 */
export async function serveShareZip(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? "GET";
  let claim: Date | null = null;
  let shareId = 0;
  const db = await getDb();
  try {
    if (method !== "GET" && method !== "HEAD") {
      throw new AppError("method_not_allowed", `Method ${method} is not allowed here`, undefined, { Allow: "GET, HEAD" });
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    const request = toWebRequest(req, url);
    const rawKey = /\/zip\/share\/([^/]+)\/?$/.exec(url.pathname)?.[1];
    // The visitor is authenticated as under route({ auth: "link" }): one resolver for every link route.
    const { share, recipientId, visitorId } = await resolveLinkVisitor(db, request, rawKey === undefined ? undefined : decodeURIComponent(rawKey), { kind: "share" });
    shareId = share.id;
    await assertShareAllows(db, share, "download");
    // A zip would carry the documents unstamped: a watermarked link's files are downloaded one by one.
    if (isWatermarked(share)) throw new AppError("forbidden", "This link watermarks its documents: download them one by one, the zip of the whole share is not offered");
    const entries = await listZipEntries(db, share);
    const name = `${(share.name || "share").replace(/[/\\]/g, "_")}.zip`;
    const headers = { "Content-Type": "application/zip", "Content-Disposition": attachmentDisposition(name), "Cache-Control": "private, no-store, no-transform", "X-Content-Type-Options": "nosniff" };
    if (method === "HEAD") {
      res.writeHead(200, headers);
      res.end();
      return;
    }
    claim = await claimDownload(db, share);
    const complete = await streamZip(res, entries, headers);
    if (!complete) {
      await releaseDownload(db, share.id, claim);
      return;
    }
    claim = null;
    try {
      const info = requestInfo(request);
      if (wantsReceipt(share)) await queueDownloadReceipt(db, share, name, parseEnvironment(info.userAgent)?.browser ?? "", appUrl(request));
      await recordShareAccess(db, share, info, { kind: "zip", recipientId, visitorId });
    } catch (error) {
      // The zip went out whole: a failure to record it must not take the download back.
      console.error("[coffre] recording a zip download failed:", error);
    }
  } catch (error) {
    if (claim) await releaseDownload(db, shareId, claim).catch(() => {});
    await sendError(res, method, error);
  }
}
