import "server-only";
import { and, eq } from "drizzle-orm";
import { rights } from "@/db/schema";
import type { CreateRightBody } from "@/lib/contracts/rights";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { getFolderOrThrow } from "../folders/get-folder";
import { notifyUsers, usersOfPrincipal } from "../notifications/notify";
import { presentRights } from "./present-rights";
import { assertHolds, assertTargetExists, flagsOf, setOnSubfolders } from "./right-access";

/**
 * POST /right: gives a user or group a right on a folder (omitted flags false). Needs the share
 * right there, and only flags the caller holds may be given. A second right for the same target
 * on the same folder is a 409 (update it instead). `recursive` sets the same right on every
 * subfolder too (replacing the target's rights there; those are not returned).
 */
export async function createRight(ctx: AuthedCtx, body: CreateRightBody, options: { recursive: boolean }) {
  const user = ctx.actor.user;
  const created = await ctx.db.transaction(async (tx) => {
    const { folder, rights: held } = await getFolderOrThrow(tx, user, body.folder_id, "share");
    await assertTargetExists(tx, body.target_id);
    const flags = flagsOf(body);
    assertHolds(held, flags);
    const [taken] = await tx.select({ id: rights.id }).from(rights).where(and(eq(rights.folderId, folder.id), eq(rights.targetId, body.target_id))).limit(1);
    if (taken) throw new AppError("conflict", `This target already has a right on this folder (right ${taken.id}): update it instead`);
    const [right] = await tx.insert(rights).values({ folderId: folder.id, targetId: body.target_id, ...flags, createdBy: user.id }).returning();
    const below = options.recursive ? await setOnSubfolders(tx, user, folder.id, body.target_id, flags) : 0;
    await writeLog(tx, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_INSERT",
      message: `Gave ${body.target_id} the right ${describeFlags(flags)} on folder ${folder.name}${below ? ` and ${below} subfolders` : ""}`,
      objectType: "right",
      objectId: right.id,
      object: folder.name,
    });
    // Issue 29: the user, or each member of the group, sees the folder arrive in the app.
    await notifyUsers(tx, await usersOfPrincipal(tx, body.target_id), { type: "share", actorId: user.id, object: { type: "folder", id: folder.id, name: folder.name } });
    return right;
  });
  const [json] = await presentRights(ctx.db, [created]);
  return json;
}

export const describeFlags = (flags: Record<string, boolean>) =>
  Object.entries(flags)
    .filter(([, on]) => on)
    .map(([name]) => name)
    .join("+") || "none";
