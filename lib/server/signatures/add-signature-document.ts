import "server-only";
import { Readable } from "node:stream";
import { max, eq } from "drizzle-orm";
import { signatureDocuments } from "@/db/schema";
import type { AddDocumentInput, SignatureDocumentResponse } from "@/lib/contracts/signatures";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { getFileOrThrow } from "../files/get-file";
import { MAX_SIGNABLE_PDF_BYTES } from "./seal/inspect-pdf";
import { inspectPdfOffThread } from "./seal/seal-pool";
import { presentDocument } from "./present-signatures";
import { getEditableDraftOrThrow, touch } from "./signature-access";

/** The contract's initials `alignment` (left/center/right) as a stored position. */
export function initialPosition(initials: AddDocumentInput["initials"]): string | null | undefined {
  if (initials === undefined) return undefined;
  if (initials === null) return null;
  const a = initials.alignment;
  return a.startsWith("bottom-") ? a : `bottom-${a}`;
}

/** Reads a blob whole, refusing it past `limit` bytes (413) before reading further. */
export async function readBlobUpTo(blobId: string, limit: number): Promise<Buffer> {
  const store = getBlobStore();
  const size = await store.size(blobId);
  if (size === null) throw new AppError("not_found", "The content of this file is missing");
  if (size > limit) throw new AppError("payload_too_large", `The PDF is larger than ${Math.round(limit / 1048576)} MiB, the most a signature request takes`);
  const chunks: Buffer[] = [];
  for await (const chunk of (await store.read(blobId)) as Readable) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

const hasPdfMagic = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 1024)).toString("latin1").includes("%PDF-");

/**
 * POST /signatures/(id)/documents/(fileId) (api.md): a PDF the caller may read and download
 * (403 otherwise; 404 when they cannot even see it), not a PDF → 415, encrypted or damaged →
 * 422 with the reason, larger than the signable limit → 413. The version's bytes are pinned
 * and its page sizes kept, so fields can be checked against the pages. Drafts only.
 */
export async function addSignatureDocument(ctx: AuthedCtx, signatureId: number, fileId: number, input: AddDocumentInput): Promise<SignatureDocumentResponse> {
  const user = ctx.actor.user;
  // Read outside the transaction: the blob can be large, no row stays locked meanwhile.
  await getEditableDraftOrThrow(ctx.db, user, signatureId, "add a document");
  const access = await getFileOrThrow(ctx.db, user, fileId, "read");
  if (!access.rights.download) throw new AppError("forbidden", "You lack the download right on this file's folder");
  const { version, file } = access;
  if (!version.blobId) throw new AppError("unsupported_media_type", "Only PDF documents can be signed");
  if (version.size > MAX_SIGNABLE_PDF_BYTES) throw new AppError("payload_too_large", `The PDF is larger than ${Math.round(MAX_SIGNABLE_PDF_BYTES / 1048576)} MiB, the most a signature request takes`);
  const bytes = await readBlobUpTo(version.blobId, MAX_SIGNABLE_PDF_BYTES);
  if (!hasPdfMagic(bytes)) throw new AppError("unsupported_media_type", "Only PDF documents can be signed");
  const { pages } = await inspectPdfOffThread(bytes);
  return ctx.db.transaction(async (tx) => {
    const request = await getEditableDraftOrThrow(tx, user, signatureId, "add a document");
    const [{ last }] = await tx.select({ last: max(signatureDocuments.position) }).from(signatureDocuments).where(eq(signatureDocuments.signatureId, request.id));
    const [doc] = await tx
      .insert(signatureDocuments)
      .values({
        signatureId: request.id,
        fileId: version.id,
        blobId: version.blobId!,
        folderId: file.folderId,
        name: input.name ?? file.name,
        initialPosition: initialPosition(input.initials) ?? null,
        pages,
        position: (last ?? 0) + 1,
      })
      .returning();
    await touch(tx, request.id);
    return presentDocument(doc, []);
  });
}
