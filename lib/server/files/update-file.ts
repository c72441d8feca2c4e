import "server-only";
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { files, folders } from "@/db/schema";
import type { UpdateFileBody } from "@/lib/contracts/files";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { getFolderOrThrow } from "../folders/get-folder";
import type { Mode } from "../present/mode";
import { assertNotLockedByOther } from "../locks/assert-not-locked";
import { assertMayTakeFileOut } from "../rights/take-out";
import { assertDestinationQuota, fileBytes } from "./assert-destination-quota";
import { getFileOrThrow } from "./get-file";
import { findLiveFileIdByName } from "./live-files";
import { validateName } from "./names";
import { presentFiles, type FileJson } from "./present-files";

/**
 * PUT /file/(fileId): rename (`name`, edit right) and/or move (`parent_id`). A file locked by
 * someone else is refused with 423, a name already used at the destination with 409, a
 * destination folder quota that cannot take every version of the file with 507.
 */
export async function updateFile(ctx: AuthedCtx, versionId: number, body: UpdateFileBody, mode: Mode): Promise<FileJson> {
  const user = ctx.actor.user;
  return ctx.db.transaction(async (tx) => {
    const access = await getFileOrThrow(tx, user, versionId, "browse");
    const name = body.name === undefined ? access.file.name : validateName(body.name);
    const isMove = body.parent_id !== undefined && body.parent_id !== access.file.folderId;
    const isRename = name !== access.file.name;
    if (!isMove && !isRename) return present({ ...ctx, db: tx }, access, mode);

    // Contract: a move needs read, download, edit and delete in the source and write in the destination.
    if (isMove) assertMayTakeFileOut(access.rights, "Moving a file");
    else if (!access.rights.edit) throw new AppError("forbidden", "Renaming a file needs the edit right in its folder");

    // The file row is held so a concurrent rename, move, lock or delete waits for this one.
    await tx.select({ id: files.id }).from(files).where(eq(files.id, access.file.id)).for("update");
    await assertNotLockedByOther(tx, access.file.id, user.id);

    let { folder: destination, rights } = access;
    if (isMove) {
      ({ folder: destination, rights } = await getFolderOrThrow(tx, user, body.parent_id!, "browse"));
      if (!rights.write) throw new AppError("forbidden", "Moving a file here needs the write right in the destination folder");
      await assertDestinationQuota(tx, access.folder, destination, await fileBytes(tx, access.file.id));
    }
    await assertNameFree(tx, destination.id, name, access.file.id);

    const now = new Date();
    const [file] = await tx.update(files).set({ name, folderId: destination.id }).where(eq(files.id, access.file.id)).returning();
    await tx.update(folders).set({ modifiedAt: now }).where(sql`${folders.id} IN (${access.folder.id}, ${destination.id})`);
    const what = [isRename ? `renamed ${access.file.name} to ${name}` : null, isMove ? `moved ${name} to folder ${destination.id}` : null];
    await writeLog(tx, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_UPDATE",
      message: `File ${what.filter(Boolean).join(", ")}`,
      objectType: "file",
      objectId: access.version.id,
      object: name,
    });
    return present({ ...ctx, db: tx }, { file, version: access.version, folder: destination, rights }, mode);
  });
}

/** 409 when another live file of the destination has the name (case and normalisation ignored). */
async function assertNameFree(db: DbOrTx, folderId: number, name: string, fileId: number) {
  if ((await findLiveFileIdByName(db, folderId, name, fileId)) !== null) throw new AppError("conflict", `A file named "${name}" already exists in that folder`);
}

async function present(ctx: AuthedCtx, access: Awaited<ReturnType<typeof getFileOrThrow>>, mode: Mode): Promise<FileJson> {
  const [json] = await presentFiles(ctx, [access], mode, { rights: new Map([[access.folder.id, access.rights]]) });
  return json;
}
