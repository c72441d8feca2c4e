import "server-only";
import { Readable } from "node:stream";
import { and, eq, isNotNull, or } from "drizzle-orm";
import { ZipFile } from "yazl";
import type { DbOrTx } from "@/db";
import { fileVersions, signatureDocuments, signatureRequests, type SignatureRequestRow } from "@/db/schema";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { AuthedCtx, Ctx } from "../context";
import { attachmentDisposition } from "../downloads/content-disposition";
import { AppError } from "../errors";
import { pdfResponse } from "./read-signing-document";
import { assertStatus, getReadableSignatureOrThrow } from "./signature-access";
import { findSignerOrThrow } from "./signer-access";

const pdfName = (name: string) => (name.toLowerCase().endsWith(".pdf") ? name : `${name}.pdf`);
const safe = (name: string) => name.replace(/[/\\]/g, "_");

/**
 * The signed documents of a done request: one PDF, or a zip of several (streamed as for share
 * zips, yazl). A mass request gathers its children's. 409 signature_state until done.
 */
export async function signedResponse(db: DbOrTx, request: SignatureRequestRow): Promise<Response> {
  assertStatus(request, ["done"], "download signed documents before it is done");
  const docs = await db
    .select({ name: signatureDocuments.name, blobId: fileVersions.blobId, size: fileVersions.size, mtime: fileVersions.createdAt, signatureId: signatureDocuments.signatureId })
    .from(signatureDocuments)
    .innerJoin(fileVersions, eq(fileVersions.id, signatureDocuments.fileSignedId))
    .innerJoin(signatureRequests, eq(signatureRequests.id, signatureDocuments.signatureId))
    .where(and(or(eq(signatureRequests.id, request.id), eq(signatureRequests.parentId, request.id)), isNotNull(fileVersions.blobId)))
    .orderBy(signatureDocuments.signatureId, signatureDocuments.position, signatureDocuments.id);
  if (docs.length === 0) throw new AppError("not_found", "No signed document is available");
  if (docs.length === 1) return pdfResponse(docs[0].blobId!, pdfName(docs[0].name.replace(/\.pdf$/i, "") + " (signed)"));
  const zip = new ZipFile();
  zip.on("error", (error: Error) => (zip.outputStream as NodeJS.ReadableStream & { destroy(e: Error): void }).destroy(error));
  const store = getBlobStore();
  const taken = new Set<string>();
  for (const d of docs) {
    let path = safe(`${d.name.replace(/\.pdf$/i, "")} (signed).pdf`);
    for (let n = 2; taken.has(path.toLowerCase()); n++) path = safe(`${d.name.replace(/\.pdf$/i, "")} (signed) (${n}).pdf`);
    taken.add(path.toLowerCase());
    const blobId = d.blobId!;
    zip.addReadStreamLazy(path, { size: d.size, mtime: d.mtime, compress: false }, (cb) => {
      store.read(blobId).then((stream) => cb(null, stream), (error) => cb(error, undefined as never));
    });
  }
  zip.end();
  const body = Readable.toWeb(zip.outputStream as Readable) as ReadableStream<Uint8Array>;
  return new Response(body, {
    headers: { "Content-Type": "application/zip", "Content-Disposition": attachmentDisposition(`${safe(request.name)} (signed).zip`), "Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff" },
  });
}

/** GET /signatures/(id)/signed: for the initiator, administrators and the platform users who took part. */
export async function downloadSigned(ctx: AuthedCtx, signatureId: number): Promise<Response> {
  const { request } = await getReadableSignatureOrThrow(ctx.db, ctx.actor.user, signatureId);
  return signedResponse(ctx.db, request);
}

/** GET /sign/(copyToken)/signed: the copy mailed to every actor at completion. */
export async function downloadSignedCopy(ctx: Ctx, token: string): Promise<Response> {
  const { request } = await findSignerOrThrow(ctx.db, token, "copy");
  return signedResponse(ctx.db, request);
}

