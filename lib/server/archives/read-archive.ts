import "server-only";
import { eq } from "drizzle-orm";
import { archiveVersions, fileVersions } from "@/db/schema";
import type { ArchiveResponse } from "@/lib/contracts/archives";
import { getBlobStore } from "@/lib/server/blobs/stores";
import { Readable } from "node:stream";
import type { AuthedCtx } from "../context";
import { attachmentDisposition } from "../downloads/content-disposition";
import { servedType } from "../downloads/served-type";
import { AppError } from "../errors";
import { getOwnArchiveOrThrow } from "./archive-access";
import { readArchived } from "./archive-bytes";
import { presentArchive } from "./present-archives";

/**
 * GET /archive/file/(id) and /archive/folder/(id): the Archive. With `download` (files, api.md)
 * the original bytes of its current version, decompressed, as an attachment (wherever they are:
 * a version not moved yet is read from the live store).
 */
export async function readArchive(ctx: AuthedCtx, type: "file" | "folder", apiId: number, download: boolean): Promise<ArchiveResponse | Response> {
  const archive = await getOwnArchiveOrThrow(ctx.db, ctx.actor.user, type, apiId);
  if (!download) return presentArchive(ctx.db, archive);
  if (archive.type !== "file" || archive.objectVersionId === null) throw new AppError("invalid_request", "Only an archived file can be downloaded", [{ path: "download", message: "files only" }]);
  const versionId = archive.objectVersionId;
  const [moved] = await ctx.db.select().from(archiveVersions).where(eq(archiveVersions.id, versionId));
  const [live] = moved ? [] : await ctx.db.select().from(fileVersions).where(eq(fileVersions.id, versionId));
  const source = moved ?? live;
  if (!source) throw new AppError("not_found", "The content of this archive is missing");
  const bytes = moved
    ? moved.archiveBlobId
      ? await readArchived(moved.archiveBlobId, moved.compression)
      : Readable.from([])
    : live!.blobId
      ? await getBlobStore().read(live!.blobId)
      : Readable.from([]);
  return new Response(Readable.toWeb(bytes) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": servedType(source.mime),
      "Content-Length": String(source.size),
      "Content-Disposition": attachmentDisposition(archive.name),
      "Content-Security-Policy": "sandbox",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-cache",
      ETag: `"${source.md5}"`,
    },
  });
}
