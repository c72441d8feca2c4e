import "server-only";
import { asc, count, eq } from "drizzle-orm";
import { groupManagers } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { getGroupOrThrow } from "../groups/get-group";
import { envelope } from "../present/envelope";
import { selectDelegates, serializeDelegate } from "./present-delegate";

/** GET /delegates/(groupId) (administrators): the group's managers as delegates, oldest first. */
export async function listDelegates(ctx: AuthedCtx, groupId: number, paging: { offset_start: number; nb_objects: number }) {
  await getGroupOrThrow(ctx.db, groupId);
  const where = eq(groupManagers.groupId, groupId);
  const [rows, [{ total }]] = await Promise.all([
    selectDelegates(ctx.db, where).orderBy(asc(groupManagers.id)).offset(paging.offset_start).limit(paging.nb_objects),
    ctx.db.select({ total: count() }).from(groupManagers).where(where),
  ]);
  return envelope(rows.map(serializeDelegate), paging.offset_start, total);
}
