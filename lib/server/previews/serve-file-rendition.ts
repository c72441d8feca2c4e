import "server-only";
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { eq } from "drizzle-orm";
import { versionPreviews } from "@/db/schema";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { AuthedCtx } from "../context";
import { parseRange } from "../downloads/range";
import { inlineSafetyHeaders } from "../downloads/served-type";
import { AppError } from "../errors";
import { getFileOrThrow } from "../files/get-file";
import { findRendition } from "./find-rendition";
import { waitMs } from "./read-thumbnail";

/**
 * GET /file/(fileId)/rendition (beyond the contract, for the web preview): what a converter made
 * of the version for viewing, inline with byte ranges: the PDF of an office document, the
 * web-playable MP4 of a video browsers cannot play. Needs the download right (a rendition holds
 * the whole content). While the previews job works on it the request waits up to 30 s, then 423;
 * a version without one is a 404 saying why (the converter's reason, a missing tool).
 */
export async function serveFileRendition(ctx: AuthedCtx, versionId: number, req: Request): Promise<Response> {
  const { version } = await getFileOrThrow(ctx.db, ctx.actor.user, versionId, "download");
  const deadline = Date.now() + waitMs();
  let rendition = await findRendition(ctx.db, version);
  let preview = rendition ? null : await previewOf(ctx, version.id);
  while (!rendition && (preview?.state === "pending" || preview?.state === "preparing") && Date.now() < deadline) {
    await sleep(250);
    rendition = await findRendition(ctx.db, version);
    preview = rendition ? null : await previewOf(ctx, version.id);
  }
  if (!rendition) {
    if (preview?.state === "pending" || preview?.state === "preparing") throw new AppError("locked", "The preview is still being made; try again later", { state: preview.state });
    throw new AppError("not_found", "This file has no rendition", { state: preview?.state ?? "none", reason: preview?.error ?? null });
  }
  const size = rendition.size;
  const range = parseRange(req.headers.get("range"), size);
  if (range.kind === "unsatisfiable") throw new AppError("range_not_satisfiable", `The range is outside the ${size} bytes`, undefined, { "Content-Range": `bytes */${size}` });
  const headers: Record<string, string> = {
    "Content-Type": rendition.mime,
    "Cache-Control": "private, no-cache, no-transform",
    "Accept-Ranges": "bytes",
    "Referrer-Policy": "no-referrer",
    ...inlineSafetyHeaders(rendition.mime),
  };
  const store = getBlobStore();
  if (range.kind === "whole") {
    const stream = await store.read(rendition.blobId);
    return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { headers: { ...headers, "Content-Length": String(size) } });
  }
  const stream = await store.read(rendition.blobId, { start: range.start, end: range.end });
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, {
    status: 206,
    headers: { ...headers, "Content-Length": String(range.end - range.start + 1), "Content-Range": `bytes ${range.start}-${range.end}/${size}` },
  });
}

async function previewOf(ctx: AuthedCtx, versionId: number) {
  const [row] = await ctx.db.select({ state: versionPreviews.state, error: versionPreviews.error }).from(versionPreviews).where(eq(versionPreviews.versionId, versionId));
  return row ?? null;
}
