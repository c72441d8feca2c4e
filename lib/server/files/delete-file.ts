import "server-only";
import { and, asc, eq, isNull } from "drizzle-orm";
import { fileLocks, fileVersions, files } from "@/db/schema";
import type { DeleteFileQuery } from "@/lib/contracts/files";
import type { TrashItemResponse } from "@/lib/contracts/trash";
import { recordFolderChange } from "../alerts/record-folder-change";
import { writeLog } from "../audit/write-log";
import { getPlatformConfig } from "../config/platform-config";
import type { AuthedCtx } from "../context";
import { assertNotLockedByOther } from "../locks/assert-not-locked";
import { presentTrashItems } from "../trash/present-trash-items";
import { purgeFileContent } from "../trash/purge";
import { sendFileToTrash, sendVersionsToTrash } from "../trash/send-to-trash";
import { getFileOrThrow } from "./get-file";

/**
 * DELETE /file/(fileId). `versions`: all (the whole file), none (only this version), previous
 * (this version and older ones, keeping newer); when no version would remain the whole file goes.
 * `trash=1` answers the Trash item (200), `trash=0` removes for good (204). With the platform's
 * trash feature off, everything is removed for good. Needs delete; 423 when locked by another.
 */
export async function deleteFile(ctx: AuthedCtx, versionId: number, query: DeleteFileQuery): Promise<TrashItemResponse | undefined> {
  const user = ctx.actor.user;
  const useTrash = query.trash && (await getPlatformConfig(ctx.db)).features.trash;
  return ctx.db.transaction(async (tx) => {
    const { file, version, folder } = await getFileOrThrow(tx, user, versionId, "delete");
    await tx.select({ id: files.id }).from(files).where(eq(files.id, file.id)).for("update");
    await assertNotLockedByOther(tx, file.id, user.id);

    const live = await tx
      .select({ id: fileVersions.id, number: fileVersions.number })
      .from(fileVersions)
      .where(and(eq(fileVersions.fileId, file.id), isNull(fileVersions.deletedAt)))
      .orderBy(asc(fileVersions.number));
    const chosen =
      query.versions === "all" ? live : query.versions === "none" ? live.filter((v) => v.id === version.id) : live.filter((v) => v.number <= version.number);
    const whole = chosen.length === live.length;
    const versionIds = chosen.map((v) => v.id);

    let item;
    if (useTrash) {
      item = whole ? await sendFileToTrash(tx, file, folder, { deletedBy: user.id }) : await sendVersionsToTrash(tx, file, folder, versionIds, { deletedBy: user.id });
      // A trashed file can no longer be edited: its lock would only block a later restore.
      if (whole) await tx.delete(fileLocks).where(eq(fileLocks.fileId, file.id));
    } else {
      await purgeFileContent(tx, file.id, whole ? null : versionIds);
    }
    if (whole) await recordFolderChange(tx, ctx, { kind: "deleted", objectType: "file", objectId: file.id, objectName: file.name, folderId: folder.id });
    const what = whole ? file.name : `${versionIds.length} version(s) of ${file.name}`;
    await writeLog(tx, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_DELETE",
      message: useTrash ? `Sent ${what} to the trash` : `Deleted ${what} for good`,
      objectType: "file",
      objectId: version.id,
      object: file.name,
    });
    if (!item) return undefined;
    const [json] = await presentTrashItems({ ...ctx, db: tx }, [item]);
    return json;
  });
}
