import "server-only";
import type { DbOrTx } from "@/db";
import { stampPdfBlob } from "../engagement/watermark-pdf";
import { isWatermarked, visitorIdOfToken, watermarkFor } from "../engagement/watermark-text";
import { parseEnvironment } from "../events/record-event";
import { contentKind } from "../previews/formats";
import { planDownload, type DownloadRequest, type PreparedDownload } from "../downloads/prepare-download";
import { recordShareAccess } from "./record-access";
import { queueDownloadReceipt } from "./receipt-mail";
import { isSingleDownload, wantsReceipt } from "./share-flags";
import { redeemShareToken, type RedeemedShareToken } from "./share-tokens";
import { claimDownload, releaseDownload } from "./single-download";

/**
 * GET /file/download?token= with a link-share token (null for any other token). A single-download
 * link is served whole (no ranges nor conditional answers, which would let a second request
 * through), claimed before the first byte and released if the transfer breaks. A complete
 * download is recorded for the owner's activity and, with flag 64, mailed to the owner.
 */
export async function prepareShareDownload(db: DbOrTx, token: string, http: DownloadRequest, base: string): Promise<PreparedDownload | null> {
  const redeemed = await redeemShareToken(db, token, "download");
  if (!redeemed) return null;
  const { share, file, version, recipientId, visitorId } = redeemed;
  const single = isSingleDownload(share);
  // A watermarked PDF is made for each download: served whole, like a single download.
  const stamped = isWatermarked(share) && contentKind(version.mime, file.name) === "pdf";
  const isGet = http.method === "GET";
  const claim = isGet ? await claimDownload(db, share) : null;
  let prepared: PreparedDownload;
  let discard = async () => {};
  try {
    prepared = await planDownload(db, { file, version, actorId: null }, single || stamped ? { ...http, range: null, ifRange: null, ifNoneMatch: null } : http);
    if (stamped) ({ prepared, discard } = await watermarkDownload(db, redeemed, token, http, prepared));
  } catch (error) {
    await releaseDownload(db, share.id, claim);
    throw error;
  }
  const fromStart = prepared.status === 200 || (prepared.status === 206 && prepared.headers["Content-Range"]?.startsWith("bytes 0-"));
  return {
    ...prepared,
    async settle(complete) {
      if (!complete) {
        await discard();
        return releaseDownload(db, share.id, claim);
      }
      if (!isGet || !fromStart) return;
      if (wantsReceipt(share)) await queueDownloadReceipt(db, share, file.name, parseEnvironment(http.info.userAgent)?.browser ?? "", base);
      await recordShareAccess(db, share, http.info, { kind: "download", fileId: file.id, versionId: version.id, recipientId, visitorId });
    },
  };
}

const ORIGINAL_ONLY = new Set(["ETag", "Last-Modified", "Accept-Ranges", "Content-Length", "Content-Range"]);

/**
 * A watermarked link's PDF (api.md, gate option `watermark`): every page stamped with the
 * visitor's email, or address, and the time, in a worker, into a temporary file streamed from
 * there; no ranges, no validators (each download is its own copy). Other formats are served as
 * they are: only PDFs can carry the stamp.
 */
async function watermarkDownload(db: DbOrTx, { share, version }: RedeemedShareToken, token: string, http: DownloadRequest, plain: PreparedDownload) {
  // Validators and ranges describe the original's bytes, not this copy's.
  const headers = Object.fromEntries(Object.entries(plain.headers).filter(([name]) => !ORIGINAL_ONLY.has(name)));
  const prepared: PreparedDownload = { status: 200, headers: { ...headers, "Cache-Control": "private, no-store, no-transform" }, body: null };
  if (http.method !== "GET" || !version.blobId) return { prepared, discard: async () => {} };
  const line = await watermarkFor(db, share, { visitorId: visitorIdOfToken(token) }, http.info.ip);
  const stamped = await stampPdfBlob({ blobId: version.blobId, size: version.size }, line);
  return { prepared: { ...prepared, headers: { ...prepared.headers, "Content-Length": String(stamped.size) }, made: stamped.opened }, discard: stamped.discard };
}
