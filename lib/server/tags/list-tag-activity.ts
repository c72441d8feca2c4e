import "server-only";
import { and, count, desc, eq, inArray, isNull } from "drizzle-orm";
import { files, folders, tagActivities, TAG_ACTIVITY, type TagActivity } from "@/db/schema";
import type { TagActivityResponse } from "@/lib/contracts/tags";
import type { AuthedCtx } from "../context";
import { envelope, iso } from "../present/envelope";
import { resolveRights } from "../rights/resolve-rights";
import { loadOwnerNames } from "../users/owner-names";
import { getVisibleTagOrThrow } from "./tag-access";

type Target = { target_type?: "file" | "folder"; target_id?: number };

/**
 * GET /tag/(id)/activity: what happened to a tag the caller sees, newest first, in the envelope.
 * Attach and detach name their element (its id as the client knows it, and its name) only when
 * the caller may see it now; otherwise the entry stays, without the element.
 */
export async function listTagActivity(ctx: AuthedCtx, tagId: number, page: { offset_start: number; nb_objects: number }) {
  const user = ctx.actor.user;
  const tag = await getVisibleTagOrThrow(ctx.db, user, tagId);
  const where = eq(tagActivities.tagId, tag.id);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(tagActivities).where(where).orderBy(desc(tagActivities.date), desc(tagActivities.id)).offset(page.offset_start).limit(page.nb_objects),
    ctx.db.select({ total: count() }).from(tagActivities).where(where),
  ]);
  const elements = await visibleElements(ctx, rows);
  const names = await loadOwnerNames(ctx.db, rows.map((r) => r.actorId).filter((id): id is number => id !== null));
  const objects = rows.map((row): TagActivityResponse => {
    const data = (row.data ?? {}) as Target & { old_name?: string; name?: string };
    const json: TagActivityResponse = {
      id: row.id,
      tag_id: row.tagId,
      type: row.type,
      date: iso(row.date)!,
      owner_id: row.actorId === null ? "0" : String(row.actorId),
      owner: row.actorId === null ? "" : (names.get(row.actorId) ?? ""),
    };
    if (row.type === TAG_ACTIVITY.renamed) Object.assign(json, { old_name: data.old_name, name: data.name });
    if (data.target_type && data.target_id !== undefined) {
      const seen = elements.get(`${data.target_type}:${data.target_id}`);
      json.element_type = data.target_type;
      if (seen) Object.assign(json, { element_id: seen.apiId, element_name: seen.name });
    }
    return json;
  });
  return envelope(objects, page.offset_start, Number(total));
}

/** The live elements of these entries the caller may see, by "type:storedId". */
async function visibleElements(ctx: AuthedCtx, rows: TagActivity[]): Promise<Map<string, { apiId: number; name: string }>> {
  const targets = rows.map((r) => (r.data ?? {}) as Target).filter((d) => d.target_type && typeof d.target_id === "number");
  const fileIds = [...new Set(targets.filter((t) => t.target_type === "file").map((t) => t.target_id!))];
  const folderIds = [...new Set(targets.filter((t) => t.target_type === "folder").map((t) => t.target_id!))];
  const [fileRows, folderRows] = await Promise.all([
    fileIds.length ? ctx.db.select({ id: files.id, apiId: files.currentVersionId, folderId: files.folderId, name: files.name }).from(files).where(and(inArray(files.id, fileIds), isNull(files.deletedAt))) : [],
    folderIds.length ? ctx.db.select({ id: folders.id, name: folders.name }).from(folders).where(and(inArray(folders.id, folderIds), isNull(folders.deletedAt))) : [],
  ]);
  const rights = await resolveRights(ctx.db, ctx.actor.user, [...fileRows.map((f) => f.folderId), ...folderRows.map((f) => f.id)]);
  const out = new Map<string, { apiId: number; name: string }>();
  for (const f of fileRows) if (f.apiId && rights.get(f.folderId)?.read) out.set(`file:${f.id}`, { apiId: f.apiId, name: f.name });
  for (const f of folderRows) if (rights.get(f.id)?.browse) out.set(`folder:${f.id}`, { apiId: f.id, name: f.name });
  return out;
}
