import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { fileVersions, type FileRow, type FileVersion } from "@/db/schema";
import type { ByteRange } from "@/lib/storage/blob-store";
import type { AuthedCtx, RequestInfo } from "../context";
import { AppError } from "../errors";
import { FILE_EVENT, recordEvent } from "../events/record-event";
import { getFileOrThrow } from "../files/get-file";
import { redeemFileToken } from "../tokens/redeem-file-token";
import { attachmentDisposition } from "./content-disposition";
import type { OpenedBlob } from "./send-blob";
import { parseRange } from "./range";
import { servedType } from "./served-type";

/** The parts of the HTTP request a download depends on. */
export type DownloadRequest = { method: string; range: string | null; ifNoneMatch: string | null; ifRange: string | null; info: RequestInfo };

/**
 * What to answer: status, headers, and the bytes to stream (none for 304, HEAD and empty files).
 * `settle` is told once whether the answer went out whole (link shares count downloads with it).
 */
export type PreparedDownload = {
  status: 200 | 206 | 304;
  headers: Record<string, string>;
  body: { blobId: string; range?: ByteRange } | null;
  /** Bytes made for this answer (a watermarked copy, share-download.ts), sent instead of a blob; `body` is then null. */
  made?: OpenedBlob;
  settle?: (complete: boolean) => Promise<void>;
};

/** actorId is null for downloads through a link share (the visitor has no account). */
type Target = { file: FileRow; version: FileVersion; actorId: number | null };

/** GET /file/(fileId)/download: needs the download right (403), 404 when nothing is there. */
export async function prepareDownloadById(ctx: AuthedCtx, versionId: number, latest: boolean, http: DownloadRequest): Promise<PreparedDownload> {
  const { file, version } = await getFileOrThrow(ctx.db, ctx.actor.user, versionId, "download", { latest });
  return planDownload(ctx.db, { file, version, actorId: ctx.actor.user.id }, http);
}

/**
 * GET /file/download?token=: the token (type download) stands for its user and its version;
 * `latest` swaps in the newest version, except for a token pinned to its own (a workflow validator's).
 */
export async function prepareDownloadByToken(db: DbOrTx, token: string, latest: boolean, http: DownloadRequest): Promise<PreparedDownload> {
  const redeemed = await redeemFileToken(db, token, "download");
  let version = redeemed.version;
  if (latest && !redeemed.pinned && redeemed.file.currentVersionId && redeemed.file.currentVersionId !== version.id) {
    const [current] = await db
      .select()
      .from(fileVersions)
      .where(and(eq(fileVersions.id, redeemed.file.currentVersionId), isNull(fileVersions.deletedAt)));
    if (current) version = current;
  }
  return planDownload(db, { file: redeemed.file, version, actorId: redeemed.user.id }, http);
}

/**
 * Conditional and partial requests (RFC 9110): `If-None-Match` against the MD5 ETag (304),
 * `If-Range`, one `Range` (206, or 416 when it starts past the end). A download is recorded for
 * the timeline once, not once per range: when it starts at the first byte.
 */
export async function planDownload(db: DbOrTx, target: Target, http: DownloadRequest): Promise<PreparedDownload> {
  const { file, version } = target;
  if (!version.blobId) throw new AppError("not_found", "The content of this file is missing");
  const size = version.size;
  const etag = `"${version.md5}"`;
  const common: Record<string, string> = {
    ETag: etag,
    "Last-Modified": version.modifiedAt.toUTCString(),
    // no-transform keeps the Content-Length (and the byte ranges) from being gzipped away by Next;
    // no-cache because replacing content keeps the version id.
    "Cache-Control": "private, no-cache, no-transform",
    "Accept-Ranges": "bytes",
    "X-Content-Type-Options": "nosniff",
  };
  if (matchesEtag(http.ifNoneMatch, etag)) return { status: 304, headers: common, body: null };

  const useRange = !http.ifRange || http.ifRange.trim() === etag;
  const range = useRange ? parseRange(http.range, size) : ({ kind: "whole" } as const);
  if (range.kind === "unsatisfiable") {
    throw new AppError("range_not_satisfiable", `The range ${http.range} is outside the ${size} bytes of this file`, undefined, { "Content-Range": `bytes */${size}`, "Accept-Ranges": "bytes" });
  }
  const headers: Record<string, string> = {
    ...common,
    "Content-Type": servedType(version.mime),
    "Content-Disposition": attachmentDisposition(file.name),
    // Always an attachment; should a browser render it anyway (an old one, a viewer extension),
    // nothing of it runs with our origin (api.md, "Served types").
    "Content-Security-Policy": "sandbox",
  };
  const isGet = http.method === "GET";
  if (isGet && (range.kind === "whole" || range.start === 0)) {
    await recordEvent(db, http.info, { targetType: "file", targetId: file.id, versionId: version.id, type: FILE_EVENT.download, actorId: target.actorId });
  }
  if (range.kind === "whole") {
    headers["Content-Length"] = String(size);
    return { status: 200, headers, body: isGet && size > 0 ? { blobId: version.blobId } : null };
  }
  headers["Content-Length"] = String(range.end - range.start + 1);
  headers["Content-Range"] = `bytes ${range.start}-${range.end}/${size}`;
  return { status: 206, headers, body: isGet ? { blobId: version.blobId, range: { start: range.start, end: range.end } } : null };
}

/** `If-None-Match: "a", W/"b"` or `*`; weak comparison, as RFC 9110 asks for this header. */
function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === etag);
}
