import "server-only";
import { Readable } from "node:stream";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { getPlatformConfig, logoVersion } from "./platform-config";

/**
 * GET /config/logo (no token: sign-in and public pages, and mails, show it). Always the PNG
 * sharp wrote, with nosniff. The ETag is the logo's version; asked with the current version
 * (`?v=`, as publicconfig gives it), the answer may be cached for good, since a new logo gets a
 * new address; otherwise caches must check back.
 */
export async function readLogo(ctx: Ctx, req: Request): Promise<Response> {
  const { logo } = await getPlatformConfig(ctx.db);
  if (!logo) throw new AppError("not_found", "No logo is configured");
  const version = logoVersion(logo);
  const etag = `"${version}"`;
  const current = new URL(req.url).searchParams.get("v") === version;
  const headers = {
    "Content-Type": logo.mime,
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": current ? "public, max-age=31536000, immutable" : "public, no-cache",
    ETag: etag,
  };
  if (req.headers.get("if-none-match")?.split(",").some((t) => t.trim() === etag || t.trim() === "*")) {
    return new Response(null, { status: 304, headers });
  }
  const store = getBlobStore();
  const size = await store.size(logo.blob_id);
  if (size === null) throw new AppError("not_found", "No logo is configured");
  const stream = await store.read(logo.blob_id);
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { headers: { ...headers, "Content-Length": String(size) } });
}
