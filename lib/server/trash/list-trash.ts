import "server-only";
import { and, desc, eq, gt } from "drizzle-orm";
import { trashItems } from "@/db/schema";
import type { TrashItemResponse } from "@/lib/contracts/trash";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { presentTrashItems } from "./present-trash-items";
import { emptiedUpTo } from "./purging";

/**
 * GET /trashes: the caller's trash (or, for administrators, the trash of `user_id`), newest
 * first, split into folders and files as the contract shows it.
 */
export async function listTrash(ctx: AuthedCtx, userId?: number): Promise<{ folders: TrashItemResponse[]; files: TrashItemResponse[] }> {
  const user = ctx.actor.user;
  const ownerId = userId ?? user.id;
  if (ownerId !== user.id && user.role !== 3) throw new AppError("forbidden", "Only administrators may read another user's trash");
  const items = await ctx.db.select().from(trashItems).where(and(eq(trashItems.ownerId, ownerId), gt(trashItems.id, await emptiedUpTo(ctx.db, ownerId)))).orderBy(desc(trashItems.deletedAt), desc(trashItems.id));
  const presented = await presentTrashItems(ctx, items);
  return { folders: presented.filter((i) => !i.is_file), files: presented.filter((i) => i.is_file) };
}
