import "server-only";
import { asc, eq } from "drizzle-orm";
import { rights } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { getFolderOrThrow } from "../folders/get-folder";
import { presentRights } from "./present-rights";

/**
 * GET /rights/(folderId): the rights set on this folder itself (inherited ones live on the
 * ancestors), for those who may administer them (share right, owners, administrators).
 */
export async function listRights(ctx: AuthedCtx, folderId: number) {
  const { folder } = await getFolderOrThrow(ctx.db, ctx.actor.user, folderId, "share");
  const found = await ctx.db.select().from(rights).where(eq(rights.folderId, folder.id)).orderBy(asc(rights.id));
  return presentRights(ctx.db, found);
}
