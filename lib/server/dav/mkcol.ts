import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthedCtx } from "../context";
import { AppError, forbidden } from "../errors";
import { createFolder } from "../folders/create-folder";
import { resolveDavPath } from "./dav-path";
import { sendEmpty } from "./dav-response";

/** MKCOL (RFC 4918, 9.3): a folder through POST /folder's service; 405 over anything, 409 without parent, 415 with a body. */
export async function mkcol(ctx: AuthedCtx, req: IncomingMessage, res: ServerResponse, segments: string[], assertWritable: (target: Awaited<ReturnType<typeof resolveDavPath>>) => Promise<void>): Promise<void> {
  const hasBody = Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
  if (hasBody) throw new AppError("unsupported_media_type", "MKCOL with a body is not supported");
  const target = await resolveDavPath(ctx, segments);
  if (target.kind === "orphan") throw new AppError("conflict", "The parent collection does not exist");
  if (target.kind !== "missing") throw new AppError("method_not_allowed", "Something already exists at this path", undefined, { Allow: "OPTIONS, PROPFIND, PROPPATCH, DELETE, COPY, MOVE, LOCK, UNLOCK" });
  if (!target.parent) throw forbidden("Spaces are not created through WebDAV");
  await assertWritable(target);
  const created = await createFolder(ctx, { name: target.name, parent_id: target.parent.folder.id });
  if (!created.created) throw new AppError("method_not_allowed", "Something already exists at this path");
  sendEmpty(res, 201);
}
