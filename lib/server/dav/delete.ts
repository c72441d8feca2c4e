import "server-only";
import type { ServerResponse } from "node:http";
import type { AuthedCtx } from "../context";
import { forbidden } from "../errors";
import { deleteFile } from "../files/delete-file";
import { deleteFolder } from "../folders/delete-folder";
import { resolveDavPath, type DavTarget } from "./dav-path";
import { notFoundUnless, sendEmpty } from "./dav-response";
import { locksRootedAt } from "./dav-locks";
import { releaseLocks } from "./unlock";
import { resourceOf } from "./dav-resources";

/** DELETE (RFC 4918, 9.6): a file (all its versions) or a folder goes to the trash, as DELETE /file and /folder do. */
export async function del(ctx: AuthedCtx, res: ServerResponse, segments: string[], assertWritable: (target: DavTarget) => Promise<void>): Promise<void> {
  const target = await resolveDavPath(ctx, segments);
  await removeTarget(ctx, target, assertWritable);
  sendEmpty(res, 204);
}

/** The removal itself, shared with MOVE and COPY's Overwrite. */
export async function removeTarget(ctx: AuthedCtx, target: DavTarget, assertWritable: (target: DavTarget) => Promise<void>): Promise<void> {
  const resource = notFoundUnless(resourceOf(target), target);
  if (resource.kind === "root" || (target.kind === "folder" && target.isSpace)) throw forbidden("A space cannot be deleted through WebDAV");
  await assertWritable(target);
  const held = await locksRootedAt(ctx.db, target);
  if (resource.kind === "file") await deleteFile(ctx, resource.version.id, { trash: true, versions: "all" });
  else await deleteFolder(ctx, resource.folder.id, { trash: true });
  // A deleted resource's locks go with it (RFC 4918, 9.6.1).
  await releaseLocks(ctx, held);
}
