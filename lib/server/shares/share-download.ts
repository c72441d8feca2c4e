import "server-only";
import type { DbOrTx } from "@/db";
import { parseEnvironment } from "../events/record-event";
import { planDownload, type DownloadRequest, type PreparedDownload } from "../downloads/prepare-download";
import { recordShareAccess } from "./record-access";
import { queueDownloadReceipt } from "./receipt-mail";
import { isSingleDownload, wantsReceipt } from "./share-flags";
import { redeemShareToken } from "./share-tokens";
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
  const { share, file, version, recipientId } = redeemed;
  const single = isSingleDownload(share);
  const isGet = http.method === "GET";
  const claim = isGet ? await claimDownload(db, share) : null;
  let prepared: PreparedDownload;
  try {
    prepared = await planDownload(db, { file, version, actorId: null }, single ? { ...http, range: null, ifRange: null, ifNoneMatch: null } : http);
  } catch (error) {
    await releaseDownload(db, share.id, claim);
    throw error;
  }
  const fromStart = prepared.status === 200 || (prepared.status === 206 && prepared.headers["Content-Range"]?.startsWith("bytes 0-"));
  return {
    ...prepared,
    async settle(complete) {
      if (!complete) return releaseDownload(db, share.id, claim);
      if (!isGet || !fromStart) return;
      if (wantsReceipt(share)) await queueDownloadReceipt(db, share, file.name, parseEnvironment(http.info.userAgent)?.browser ?? "", base);
      await recordShareAccess(db, share, http.info, { kind: "download", fileId: file.id, versionId: version.id, recipientId });
    },
  };
}
