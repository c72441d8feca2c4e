import "server-only";
import { asc, count } from "drizzle-orm";
import { fileTemplates } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { getFolderOrThrow } from "../folders/get-folder";
import { envelope } from "../present/envelope";
import { presentTemplates } from "./present-templates";
import { offeredIn } from "./template-access";

/** GET /template/files/(folderId) (api.md): the templates offered in a folder the caller may browse, by name, in the envelope. */
export async function listTemplates(ctx: AuthedCtx, folderId: number, page: { offset_start: number; nb_objects: number }) {
  const { folder } = await getFolderOrThrow(ctx.db, ctx.actor.user, folderId, "browse");
  const where = offeredIn(folder);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(fileTemplates).where(where).orderBy(asc(fileTemplates.name), asc(fileTemplates.id)).offset(page.offset_start).limit(page.nb_objects),
    ctx.db.select({ total: count() }).from(fileTemplates).where(where),
  ]);
  return envelope(await presentTemplates(ctx.db, ctx.actor.user, rows), page.offset_start, Number(total));
}
