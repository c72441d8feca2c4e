import "server-only";
import { eq } from "drizzle-orm";
import { folders, type Folder } from "@/db/schema";
import type { CreateFolderBody } from "@/lib/contracts/folders";
import { writeLog } from "../audit/write-log";
import { isAdmin, type AuthedCtx } from "../context";
import { AppError, forbidden } from "../errors";
import { FOLDER_EVENT, recordEvent } from "../events/record-event";
import { validateName } from "../files/names";
import { resolveFolderRights } from "../rights/resolve-rights";
import { findLiveChildFolder, lockFolderName } from "./folder-names";
import { getFolderOrThrow } from "./get-folder";

/** The folder row: callers that answer HTTP present it (presentFolders), the others use its id. */
export type CreateFolderResult = { created: boolean; folder: Folder };

/**
 * POST /folder. 201 with the new folder; 200 with the existing one when a live folder of that
 * name is already there and the caller may browse it; 403 when it is there but hidden from the
 * caller, or the caller lacks write in the parent. parent_id 0 makes a company top folder
 * (administrators only). A new folder belongs to the owner of its parent's tree (its creator at
 * the top level), so creating a folder never changes anyone's rights.
 */
export async function createFolder(ctx: AuthedCtx, body: CreateFolderBody): Promise<CreateFolderResult> {
  const user = ctx.actor.user;
  if (body.name === undefined) throw new AppError("invalid_request", "Invalid request: name", [{ path: "name", message: "Required" }]);
  const name = validateName(body.name);
  if ((body.quota !== undefined || body.purge_frequency !== undefined) && !isAdmin(user)) {
    throw forbidden("Only administrators set a folder's quota or purge frequency");
  }
  if (body.parent_id === 0 && !isAdmin(user)) throw forbidden("Only administrators create folders at the top level");

  return ctx.db.transaction(async (tx) => {
    const parent = body.parent_id === 0 ? null : await getFolderOrThrow(tx, user, body.parent_id, "browse");
    const parentId = parent?.folder.id ?? null;
    await lockFolderName(tx, parentId, name);
    const existing = await findLiveChildFolder(tx, parentId, name);
    if (existing) {
      if (!(await resolveFolderRights(tx, user, existing.id)).browse) throw forbidden("A folder of that name exists here and you may not access it");
      return { folder: existing, created: false };
    }
    if (parent && !parent.rights.write) throw forbidden("Creating a folder needs the write right in the parent folder");

    const now = new Date();
    const [inserted] = await tx
      .insert(folders)
      .values({
        name,
        parentId,
        path: parent ? [...parent.folder.path, parent.folder.id] : [],
        ownerId: parent?.folder.ownerId ?? user.id,
        space: parent?.folder.space ?? "company",
        quota: body.quota ?? (parent ? -1 : 0),
        purgeFrequency: body.purge_frequency ?? 0,
        createdAt: now,
        modifiedAt: now,
      })
      .returning();
    if (parent) await tx.update(folders).set({ modifiedAt: now }).where(eq(folders.id, parent.folder.id));
    await recordEvent(tx, ctx.request, { targetType: "folder", targetId: inserted.id, type: FOLDER_EVENT.created, actorId: user.id });
    await writeLog(tx, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_INSERT",
      message: `Created folder ${name}${parent ? ` in ${parent.folder.name}` : " at the top level"}`,
      objectType: "folder",
      objectId: inserted.id,
      object: name,
    });
    return { folder: inserted, created: true };
  });
}
