import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { trashItems, type TrashItem, type User } from "@/db/schema";
import type { TrashItemResponse } from "@/lib/contracts/trash";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { presentTrashItems } from "./present-trash-items";
import { notBeingPurged } from "./purging";

/**
 * A trash item the user may act on: the owner of the trash it is in, the person who deleted it,
 * or an administrator. Anyone else gets the same 404 as for an unknown item (api.md: never leak).
 * `forUpdate` holds the row, so a concurrent restore and purge of one item cannot both run.
 */
export async function getTrashItemOrThrow(db: DbOrTx, user: Pick<User, "id" | "role">, trashId: number, options: { forUpdate?: boolean } = {}): Promise<TrashItem> {
  const query = db.select().from(trashItems).where(and(eq(trashItems.id, trashId), notBeingPurged)).limit(1);
  const [item] = options.forUpdate ? await query.for("update") : await query;
  if (!item || !mayActOn(user, item)) throw new AppError("not_found", "Trash item not found");
  return item;
}

export const mayActOn = (user: Pick<User, "id" | "role">, item: TrashItem) => user.role === 3 || item.ownerId === user.id || item.deletedBy === user.id;

/** GET /trash/(trashId). */
export async function readTrashItem(ctx: AuthedCtx, trashId: number): Promise<TrashItemResponse> {
  const item = await getTrashItemOrThrow(ctx.db, ctx.actor.user, trashId);
  const [json] = await presentTrashItems(ctx, [item]);
  return json;
}
