import "server-only";
import { and, count, desc, eq } from "drizzle-orm";
import { archives } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { ownArchives } from "./archive-access";
import { presentArchives } from "./present-archives";

/** GET /archives: the caller's archives (administrators: every archive), newest first, in the envelope; `type` narrows it. */
export async function listArchives(ctx: AuthedCtx, query: { offset_start: number; nb_objects: number; type?: "file" | "folder" }) {
  const where = and(ownArchives(ctx.actor.user), query.type ? eq(archives.type, query.type) : undefined);
  const [rowsFound, [{ total }]] = await Promise.all([
    ctx.db.select().from(archives).where(where).orderBy(desc(archives.createdAt), desc(archives.id)).offset(query.offset_start).limit(query.nb_objects),
    ctx.db.select({ total: count() }).from(archives).where(where),
  ]);
  return envelope(await presentArchives(ctx.db, rowsFound), query.offset_start, Number(total));
}
