import "server-only";
import type { FileRow } from "@/db/schema";
import type { LockResponse } from "@/lib/contracts/locks";
import type { AuthedCtx } from "../context";
import { getFileOrThrow } from "../files/get-file";
import { loadLocks, presentLock } from "./serialize-lock";

/** GET /lock/(fileId): the file's Lock; an unlocked file answers `locked: false`. */
export async function readLock(ctx: AuthedCtx, versionId: number): Promise<LockResponse> {
  const { file } = await getFileOrThrow(ctx.db, ctx.actor.user, versionId, "browse");
  const lock = (await loadLocks(ctx.db, [file.id])).get(file.id);
  return lock ? presentLock(ctx.db, file, lock, ctx.actor.user.id) : unlocked(file);
}

/** Nothing blocks anyone: the optional holder fields are absent (contract: no value, no field). */
export const unlocked = (file: Pick<FileRow, "currentVersionId" | "guid">): LockResponse => ({
  file: file.currentVersionId ?? 0,
  file_guid: file.guid,
  locked: false,
  writeable: true,
  readable: true,
});
