import "server-only";
import { count } from "drizzle-orm";
import { tagCategories } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { presentCategories } from "./present-tags";

/** GET /tag/categories: every category, by name, in the envelope; `full` adds the tags the caller sees in each. */
export async function listCategories(ctx: AuthedCtx, query: { offset_start: number; nb_objects: number; full: boolean }) {
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(tagCategories).orderBy(tagCategories.nameKey, tagCategories.id).offset(query.offset_start).limit(query.nb_objects),
    ctx.db.select({ total: count() }).from(tagCategories),
  ]);
  return envelope(await presentCategories(ctx.db, ctx.actor.user, rows, query.full), query.offset_start, Number(total));
}
