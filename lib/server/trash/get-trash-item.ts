import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { trashItems, type TrashItem, type User } from "@/db/schema";
import type { TrashItemResponse } from "@/lib/contracts/trash";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { resolveFolderRights } from "../rights/resolve-rights";
import { presentTrashItems } from "./present-trash-items";
import { notBeingPurged } from "./purging";

type Who = Pick<User, "id" | "role">;

/** `isOwner`: the caller owns the item (or is an administrator); otherwise they are the one who deleted it. */
export type TrashItemAccess = { item: TrashItem; isOwner: boolean };

/**
 * A trash item the user may act on. It is in its owner's trash (the owner of what was deleted):
 * the owner and administrators may read, restore and purge it. Whoever deleted it may read it
 * and restore it (an undo) while they still hold the delete right where it came from, but never
 * purge it: the owner keeps it (issue 25). Anyone else gets the same 404 as for an unknown item
 * (api.md: never leak). `forUpdate` holds the row, so a concurrent restore and purge of one item
 * cannot both run.
 */
export async function getTrashItemOrThrow(db: DbOrTx, user: Who, trashId: number, options: { forUpdate?: boolean } = {}): Promise<TrashItemAccess> {
  const query = db.select().from(trashItems).where(and(eq(trashItems.id, trashId), notBeingPurged)).limit(1);
  const [item] = options.forUpdate ? await query.for("update") : await query;
  const notFound = new AppError("not_found", "Trash item not found");
  if (!item) throw notFound;
  if (user.role === 3 || item.ownerId === user.id) return { item, isOwner: true };
  if (item.deletedBy !== user.id || item.originalParentId === null) throw notFound;
  if (!(await resolveFolderRights(db, user, item.originalParentId)).delete) throw notFound;
  return { item, isOwner: false };
}

/** GET /trash/(trashId). */
export async function readTrashItem(ctx: AuthedCtx, trashId: number): Promise<TrashItemResponse> {
  const { item } = await getTrashItemOrThrow(ctx.db, ctx.actor.user, trashId);
  const [json] = await presentTrashItems(ctx, [item]);
  return json;
}
