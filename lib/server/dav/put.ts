import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { AuthedCtx } from "../context";
import { AppError, forbidden } from "../errors";
import { commitUpload } from "../files/commit-upload";
import { validateName } from "../files/names";
import { nodeBodyView } from "../http/body-source";
import { capBytes } from "../uploads/receive-chunk";
import { assertUploadAllowed } from "../uploads/upload-target";
import { resolveDavPath } from "./dav-path";
import { sendEmpty } from "./dav-response";

/**
 * PUT (RFC 4918, 9.7): the body streams into the store and becomes a new file, or the next
 * version of the file of that name, through the one commit path of uploads (rights, locks,
 * quotas, events, audit). Rights, locks and a declared Content-Length are checked before a byte
 * is stored; a body without length is cut at the room the quotas leave (507).
 */
export async function put(ctx: AuthedCtx, req: IncomingMessage, res: ServerResponse, segments: string[], assertWritable: (target: Awaited<ReturnType<typeof resolveDavPath>>) => Promise<void>): Promise<void> {
  if (req.headers["content-range"]) throw new AppError("invalid_request", "Partial PUT (Content-Range) is not supported");
  const target = await resolveDavPath(ctx, segments);
  if (target.kind === "orphan") throw new AppError("conflict", "The parent collection does not exist");
  if (target.kind === "root" || target.kind === "folder") throw new AppError("method_not_allowed", "A collection cannot be written with PUT", undefined, { Allow: "OPTIONS, PROPFIND, PROPPATCH, MKCOL, DELETE, COPY, MOVE, LOCK, UNLOCK" });
  if (target.kind === "missing" && !target.parent) throw forbidden("Spaces are not created through WebDAV");
  await assertWritable(target);
  const folder = target.kind === "file" ? target.folder : target.parent!.folder;
  const name = validateName(target.kind === "file" ? target.file.name : target.name);
  const declaredHeader = req.headers["content-length"];
  const declared = declaredHeader === undefined ? undefined : Number(declaredHeader);
  if (declared !== undefined && (!Number.isSafeInteger(declared) || declared < 0)) throw new AppError("invalid_request", "Invalid Content-Length");
  const { room } = await assertUploadAllowed(ctx, { folderId: folder.id, name, neverOverwrite: false }, declared);

  const cap = capBytes(room, () => new AppError("insufficient_storage", "Storage exhausted: this file would exceed a quota"));
  // Through a view of the request: a refusal half-way (the cap, the store) stops the view, never
  // the request, whose rest the answer drains within bounds (answer-early.ts).
  const source = nodeBodyView(req);
  const feeding = pipeline(source.body, cap);
  feeding.catch(() => {});
  const store = getBlobStore();
  const interrupted = (error: unknown) => (error instanceof AppError ? error : new AppError("invalid_request", "The request body was interrupted"));
  const blob = await store
    .put(cap, { expectedBytes: declared })
    .catch((error: unknown) => {
      throw interrupted(error);
    })
    .finally(() => source.release());
  await feeding.catch(async (error: unknown) => {
    await store.delete(blob.id).catch(() => {});
    throw interrupted(error);
  });
  if (declared !== undefined && blob.size !== declared) {
    await store.delete(blob.id).catch(() => {});
    throw new AppError("invalid_request", `Received ${blob.size} bytes, Content-Length announced ${declared}`);
  }
  const type = req.headers["content-type"]?.split(";")[0].trim();
  const result = await commitUpload(ctx, { folderId: folder.id, name, blob, mime: type || undefined });
  sendEmpty(res, result.created ? 201 : 204, { ETag: `"${result.version.md5}"` });
}
