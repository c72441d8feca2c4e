import "server-only";
import { Readable } from "node:stream";
import { and, eq } from "drizzle-orm";
import { fileVersions, signatureDocuments } from "@/db/schema";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { Ctx } from "../context";
import { attachmentDisposition } from "../downloads/content-disposition";
import { inlineSafetyHeaders } from "../downloads/served-type";
import { AppError } from "../errors";
import { openSignerOrThrow } from "./signer-access";

/** A PDF blob as a response: inline for pdf.js, nosniff (served-type.ts), never cached by proxies. */
export async function pdfResponse(blobId: string, name: string, options: { inline?: boolean } = {}): Promise<Response> {
  const store = getBlobStore();
  const size = await store.size(blobId);
  if (size === null) throw new AppError("not_found", "The content of this document is missing");
  const stream = Readable.toWeb(await store.read(blobId)) as ReadableStream<Uint8Array>;
  const disposition = options.inline ? attachmentDisposition(name).replace(/^attachment/, "inline") : attachmentDisposition(name);
  return new Response(stream, {
    status: 200,
    headers: { "Content-Type": "application/pdf", "Content-Length": String(size), "Content-Disposition": disposition, "Cache-Control": "private, no-store", ...inlineSafetyHeaders("application/pdf") },
  });
}

/**
 * GET /sign/(token)/documents/(docId) (api.md): the PDF as it stands, the original until the
 * request is completed. Only documents of this actor's request; any other id is a 404.
 */
export async function readSigningDocument(ctx: Ctx, token: string, documentId: number): Promise<Response> {
  const { request } = await openSignerOrThrow(ctx.db, token);
  const [doc] = await ctx.db
    .select({ doc: signatureDocuments, signedBlob: fileVersions.blobId })
    .from(signatureDocuments)
    .leftJoin(fileVersions, eq(fileVersions.id, signatureDocuments.fileSignedId))
    .where(and(eq(signatureDocuments.id, documentId), eq(signatureDocuments.signatureId, request.id)))
    .limit(1);
  if (!doc) throw new AppError("not_found", "Document not found");
  return pdfResponse(doc.signedBlob ?? doc.doc.blobId, doc.doc.name.toLowerCase().endsWith(".pdf") ? doc.doc.name : `${doc.doc.name}.pdf`, { inline: true });
}
