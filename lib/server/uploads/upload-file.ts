import "server-only";
import fs from "node:fs/promises";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { uploadFields, uploadFieldsObject, type UploadFields } from "@/lib/contracts/uploads";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { StoredBlob } from "@/lib/storage/blob-store";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { commitUpload, type CommitResult } from "../files/commit-upload";
import { validateName } from "../files/names";
import { presentCommitted, type FileItem, type FileJson } from "../files/present-files";
import type { BodySource } from "../http/body-source";
import { streamMultipartFile, type FilePart } from "../http/multipart";
import type { Mode } from "../present/mode";
import { remainingQuota } from "../quotas/assert-quota";
import { capBytes, chunkOffset, dropIfEmpty, expectedChunkBytes, openChunkedUpload, receiveChunk, receiveChunkPart, writeChunkAt, type ChunkPart } from "./receive-chunk";
import { assertUploadAllowed, ensureTargetFolder } from "./upload-target";

export type UploadOutcome = { kind: "file"; file: FileJson; committed: FileItem; fields: Readonly<Record<string, string>> } | { kind: "received" } | { kind: "missing"; missing: number[] };

/**
 * A drop-link deposit: the link decides the folder (the form's `folderId` and `targetPath` are
 * ignored), an existing name gets a numbered one, and `scope` keeps visitors' chunks apart.
 */
export type DepositPlace = { folderId: number; scope: string; ulinkId: number; checkFields?: (raw: Readonly<Record<string, string>>) => void };
export type UploadOptions = { meta: boolean; mode: Mode; deposit?: DepositPlace };

/** The file part as received: a blob (whole upload) or a work file (one chunk). Invisible either way. */
type Received = { name: string; mime: string } & ({ kind: "blob"; blob: StoredBlob } | { kind: "chunk"; part: ChunkPart; opened?: string; chunks?: number });

const MiB = 1 << 20;
// Multipart framing and text parts around the file: the early quota check leaves them out.
const FRAMING_SLACK = 64 * 1024;
// A whole request body up to this size is stored before its target is checked (receiveFile).
const SMALL_BODY = MiB;

/**
 * POST /file/upload (rest-interface: Upload): parts `folderId`, `targetFile`, `targetPath`, and
 * for the chunked protocol `chunk`, `chunks`, `chunksSize`, `fileSize`, `fileHash`, `report`.
 * The file streams into the store while it arrives; the text parts may come before or after it,
 * so the content is stored invisibly first and committed once every part is known. When the
 * target comes first, rights and the declared size are checked before a byte is stored. Any
 * failure (including a client that goes away) leaves no file and no blob behind.
 */
export async function uploadFile(ctx: AuthedCtx, source: BodySource, options: UploadOptions): Promise<UploadOutcome> {
  const deposit = options.deposit;
  const declaredLength = Number(source.headers.get("content-length")) || undefined;
  const { fields: raw, result: received } = await streamMultipartFile(source, {
    field: "targetFile",
    maxFileBytes: Number.POSITIVE_INFINITY,
    fileOptional: true,
    highWaterMark: MiB,
    onFile: (file, early) => receiveFile(ctx, file, early, declaredLength, deposit),
    discard: discardReceived,
  });
  // Once commitUpload has the blob, it deletes it on failure itself; after success it is the file's.
  let handedOver = false;
  try {
    const fields = placed(uploadFields.parse(raw), deposit);
    // Before anything is committed: a refused deposit leaves neither file nor chunk behind.
    deposit?.checkFields?.(raw);
    if (!received) throw new AppError("invalid_request", 'The multipart body has no file part named "targetFile"', [{ path: "targetFile", message: "required" }]);
    const folderId = fields.folderId ?? privateRootOf(ctx);
    if (fields.chunk !== undefined && fields.chunks !== undefined) {
      const part = await toChunkPart(received, fields);
      const request = {
        folderId,
        targetPath: fields.targetPath,
        name: received.name,
        mime: received.mime,
        fields: { ...fields, chunk: fields.chunk, chunks: fields.chunks },
        neverOverwrite: Boolean(deposit),
        scope: deposit?.scope,
        ulinkId: deposit?.ulinkId,
      };
      const outcome = await receiveChunk(ctx, request, part).catch(async (error) => {
        // Not filed under its upload (refused): a work file goes; bytes at their place stay uncounted.
        if (part) await discardPart(part);
        throw error;
      });
      // Opened under fields that changed after the file part: that session holds no chunk.
      if (received.kind === "chunk" && received.opened) await dropIfEmpty(ctx, received.opened, received.chunks ?? 0);
      if (outcome.kind !== "committed") return outcome;
      return { kind: "file", file: await present(ctx, outcome.result, options), committed: outcome.result, fields: raw };
    }
    if (received.kind !== "blob") throw new Error("A whole upload was received as a chunk");
    assertDeclared(fields, received.blob);
    const target = await ensureTargetFolder(ctx, folderId, fields.targetPath);
    handedOver = true;
    const result = await commitUpload(ctx, { folderId: target, name: received.name, blob: received.blob, mime: received.mime, neverOverwrite: Boolean(deposit) });
    return { kind: "file", file: await present(ctx, result, options), committed: result, fields: raw };
  } catch (error) {
    if (received && !handedOver) await discardReceived(received);
    // The session this request opened, if its chunk never got filed, goes with its reservation.
    if (received?.kind === "chunk" && received.opened) await dropIfEmpty(ctx, received.opened, received.chunks ?? 0);
    throw error;
  }
}

/**
 * Receives the file part, refusing as early as the fields sent before it allow: rights and the
 * declared size when the target is known (unless the body is small), and never more bytes than
 * can be kept. A chunk whose
 * chunked fields came first is bounded by the size the protocol gives it, and its upload is
 * opened (reserved against the quotas) before a byte is stored; a whole file is cut off once it
 * outgrows what the quotas leave (507).
 */
async function receiveFile(ctx: AuthedCtx, file: FilePart, earlyRaw: Readonly<Record<string, string>>, declaredLength?: number, deposit?: DepositPlace): Promise<Received> {
  const early = placed(uploadFieldsObject.parse(earlyRaw), deposit);
  const name = validateName(file.filename);
  const mime = file.mimeType;
  if (early.chunk !== undefined || early.chunks !== undefined) {
    const fields = placed(uploadFields.parse(earlyRaw), deposit);
    if (fields.chunk === undefined || fields.chunks === undefined) throw new AppError("invalid_request", "chunk and chunks go together", [{ path: "chunks", message: "required with chunk" }]);
    const chunkFields = { ...fields, chunk: fields.chunk, chunks: fields.chunks };
    const expected = expectedChunkBytes(chunkFields);
    // A `report` request may send an empty part only: it opens nothing (receiveChunk files a real chunk).
    let opened: string | undefined;
    let place: string | undefined;
    if (fields.folderId !== undefined && !fields.report) {
      const request = { folderId: fields.folderId, targetPath: fields.targetPath, name, mime, fields: chunkFields, neverOverwrite: Boolean(deposit), scope: deposit?.scope, ulinkId: deposit?.ulinkId };
      const { uploadId, created } = await openChunkedUpload(ctx, request);
      place = uploadId;
      if (created) opened = uploadId;
    }
    try {
      // The upload is known and reserved: the chunk goes straight to its place in the data file.
      const part: ChunkPart = place
        ? { placedIn: place, size: await writeChunkAt(place, chunkOffset(chunkFields), file.stream, expected, chunkFields.fileSize) }
        : await receiveChunkPart(file.stream, expected);
      return { kind: "chunk", name, mime, part, opened, chunks: chunkFields.chunks };
    } catch (error) {
      if (opened) await dropIfEmpty(ctx, opened, chunkFields.chunks);
      throw error;
    }
  }
  const estimate = early.fileSize ?? (declaredLength !== undefined ? declaredLength - FRAMING_SLACK : undefined);
  // A small body is not worth a question before it is stored: the commit checks the same (rights,
  // lock, quotas) in its transaction and deletes the blob when it refuses, and the body cannot
  // outgrow its Content-Length. Asking first cost a round trip of four statements per upload.
  const isSmall = declaredLength !== undefined && declaredLength <= SMALL_BODY && !early.targetPath;
  // Else the room is known from the admission when the folder came first; without it, the user's
  // and the platform's quotas still bound the file.
  const room = isSmall
    ? Number.POSITIVE_INFINITY
    : early.folderId !== undefined
      ? (await assertUploadAllowed(ctx, { folderId: early.folderId, targetPath: early.targetPath, name, neverOverwrite: Boolean(deposit) }, estimate)).room
      : await remainingQuota(ctx.db, { userId: ctx.actor.user.id });
  const stream = Number.isFinite(room) ? capped(file.stream, room) : file.stream;
  return { kind: "blob", name, mime, blob: await getBlobStore().put(stream, { expectedBytes: estimate }) };
}

/** The file part, failing with 507 once it outgrows `room`. */
function capped(stream: Readable, room: number): Readable {
  const cap = capBytes(room, () => new AppError("insufficient_storage", "Storage exhausted: this file would exceed a quota"));
  // pipeline, not pipe: the cap's error must stop the part too (multipart.ts then drains the rest).
  pipeline(stream, cap).catch(() => {});
  return cap;
}

/**
 * The chunk to file under its upload. A chunk whose fields came after it was stored as a blob: it
 * moves to the work area. An empty part sent with `report` only asks for the missing list.
 */
async function toChunkPart(received: Received, fields: UploadFields): Promise<ChunkPart | undefined> {
  if (received.kind === "chunk") {
    if (fields.report && received.part.size === 0 && fields.fileSize !== 0) {
      await discardPart(received.part);
      return undefined;
    }
    return received.part;
  }
  const store = getBlobStore();
  try {
    if (fields.report && received.blob.size === 0 && fields.fileSize !== 0) return undefined;
    return await receiveChunkPart(await store.read(received.blob.id));
  } finally {
    await store.delete(received.blob.id);
  }
}

/** A deposit's folder is the link's, whatever the form says. */
function placed<F extends { folderId?: number; targetPath?: string }>(fields: F, deposit: DepositPlace | undefined): F {
  return deposit ? { ...fields, folderId: deposit.folderId, targetPath: undefined } : fields;
}

function assertDeclared(fields: UploadFields, blob: StoredBlob) {
  if (fields.fileSize !== undefined && fields.fileSize !== blob.size) {
    throw new AppError("invalid_request", `Received ${blob.size} bytes, fileSize announced ${fields.fileSize}`, [{ path: "fileSize", message: "does not match the file received" }]);
  }
  if (fields.fileHash && fields.fileHash !== blob.md5) {
    throw new AppError("invalid_request", `The file received has MD5 ${blob.md5}, fileHash announced ${fields.fileHash}`, [{ path: "fileHash", message: "does not match the file received" }]);
  }
}

async function discardReceived(received: Received) {
  if (received.kind === "blob") await getBlobStore().delete(received.blob.id).catch(() => {});
  else await discardPart(received.part).catch(() => {});
}

/** A work file goes; bytes already at their place in a data file stay there, uncounted until marked. */
async function discardPart(part: ChunkPart) {
  if ("path" in part) await fs.rm(part.path, { force: true });
}

/** Like POST /file, a missing folderId means the caller's private space. */
function privateRootOf(ctx: AuthedCtx): number {
  const root = ctx.actor.user.privateRootId;
  if (!root) throw new AppError("invalid_request", "folderId is required", [{ path: "folderId", message: "required" }]);
  return root;
}

function present(ctx: AuthedCtx, result: CommitResult, options: { meta: boolean; mode: Mode }) {
  return presentCommitted(ctx, result, options.mode, { meta: options.meta });
}
