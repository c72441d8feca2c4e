import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthedCtx } from "../context";
import { AppError, forbidden } from "../errors";
import { createFile } from "../files/create-file";
import { validateName } from "../files/names";
import { createFolder } from "../folders/create-folder";
import { updateFolder } from "../folders/update-folder";
import { updateFile } from "../files/update-file";
import { DAV_PREFIX, davSegments, resolveDavPath } from "./dav-path";
import { DavError, notFoundUnless, sendEmpty } from "./dav-response";
import { childrenOf, resourceOf, type DavResource } from "./dav-resources";
import { removeTarget } from "./delete";
import { locksRootedAt } from "./dav-locks";
import { releaseLocks } from "./unlock";
import type { AssertWritable } from "./dav-handler";

/**
 * COPY and MOVE (RFC 4918, 9.8 and 9.9) on the API's services: a file copy is POST /file?copy
 * (the blob shared), a folder copy MKCOL then each member copied (Depth: infinity, the default,
 * or 0 for the folder alone); MOVE is the rename and move of PUT /file and PUT /folder. An
 * existing destination is refused with 412 under `Overwrite: F`, otherwise sent to the trash
 * first (204); a new one is 201.
 */
export async function copyOrMove(ctx: AuthedCtx, req: IncomingMessage, res: ServerResponse, segments: string[], move: boolean, assertWritable: AssertWritable): Promise<void> {
  const destination = destinationSegments(req);
  const overwrite = overwriteOf(req.headers.overwrite);
  const depth = depthOf(req.headers.depth, move);
  const source = await resolveDavPath(ctx, segments);
  const resource = notFoundUnless(resourceOf(source), source);
  if (resource.kind === "root" || (source.kind === "folder" && source.isSpace && move)) throw forbidden("A space cannot be moved through WebDAV");
  if (sameOrInside(segments, destination, resource.kind !== "file")) throw forbidden("The destination is the source or inside it");

  let target = await resolveDavPath(ctx, destination);
  // The same file or folder under another case of its name: a MOVE renames it in place.
  const sameEntity =
    (target.kind === "file" && resource.kind === "file" && target.file.id === resource.file.id) ||
    (target.kind === "folder" && resource.kind === "folder" && target.folder.id === resource.folder.id);
  if (sameEntity) {
    if (!move) throw forbidden("A resource cannot be copied onto itself");
    await assertWritable(source);
    const name = validateName(destination[destination.length - 1]);
    if (resource.kind === "file") await updateFile(ctx, resource.version.id, { name }, "light");
    else await updateFolder(ctx, resource.folder.id, { name }, { recursive: false, mode: "light" });
    sendEmpty(res, 201);
    return;
  }
  if (target.kind === "orphan") throw new AppError("conflict", "The destination's parent collection does not exist");
  if (target.kind === "root" || (target.kind === "missing" && !target.parent) || (target.kind === "folder" && target.isSpace)) throw forbidden("A space cannot be a destination");
  const existed = target.kind !== "missing";
  if (existed && !overwrite) throw new DavError(412, "The destination exists and Overwrite is F");
  if (move) await assertWritable(source);
  await assertWritable(target);
  if (target.kind === "file" || target.kind === "folder") {
    await removeTarget(ctx, target, assertWritable);
    target = await resolveDavPath(ctx, destination);
  }
  if (target.kind !== "missing" || !target.parent) throw new AppError("conflict", "The destination changed meanwhile");
  const parentId = target.parent.folder.id;
  const name = validateName(target.name);
  if (move) {
    // Locks do not move with a resource (RFC 4918, 9.9.4): the source's go.
    const held = await locksRootedAt(ctx.db, source);
    if (resource.kind === "file") await updateFile(ctx, resource.version.id, { name, parent_id: parentId }, "light");
    else await updateFolder(ctx, resource.folder.id, { name, parent_id: parentId }, { recursive: false, mode: "light" });
    await releaseLocks(ctx, held);
  } else {
    await copyInto(ctx, resource, parentId, name, depth === 0);
  }
  sendEmpty(res, existed ? 204 : 201);
}

async function copyInto(ctx: AuthedCtx, resource: DavResource, parentId: number, name: string, shallow: boolean): Promise<void> {
  if (resource.kind === "file") {
    await createFile(ctx, { name, parent_id: parentId }, { copy: resource.version.id, mode: "light" });
    return;
  }
  const created = await createFolder(ctx, { name, parent_id: parentId });
  if (shallow) return;
  for (const child of await childrenOf(ctx, resource)) {
    await copyInto(ctx, child, created.folder.id, child.kind === "file" ? child.file.name : child.kind === "folder" ? child.folder.name : name, false);
  }
}

/** The Destination header as path segments below /dav (another origin's path is still read as ours). */
function destinationSegments(req: IncomingMessage): string[] {
  const header = req.headers.destination;
  if (typeof header !== "string" || header === "") throw new AppError("invalid_request", "COPY and MOVE need a Destination header");
  let pathname: string;
  try {
    pathname = new URL(header, "http://localhost").pathname;
  } catch {
    throw new AppError("invalid_request", "Destination is not a URL");
  }
  if (pathname !== DAV_PREFIX && !pathname.startsWith(`${DAV_PREFIX}/`)) throw new DavError(502, "The destination is outside /dav/");
  return davSegments(pathname);
}

function overwriteOf(header: string | string[] | undefined): boolean {
  const value = (Array.isArray(header) ? header[0] : header)?.trim().toUpperCase();
  if (value === undefined || value === "T") return true;
  if (value === "F") return false;
  throw new AppError("invalid_request", "Overwrite must be T or F");
}

function depthOf(header: string | string[] | undefined, move: boolean): 0 | "infinity" {
  const value = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase() ?? "infinity";
  if (value === "infinity") return "infinity";
  if (value === "0" && !move) return 0;
  throw new AppError("invalid_request", move ? "MOVE takes Depth: infinity only" : "COPY takes Depth 0 or infinity");
}

function sameOrInside(source: string[], destination: string[], collection: boolean): boolean {
  const key = (s: string) => s.normalize("NFC").toLowerCase();
  if (destination.length === source.length) return source.every((s, i) => s === destination[i]);
  if (!collection || destination.length < source.length) return false;
  return source.every((s, i) => key(s) === key(destination[i]));
}
