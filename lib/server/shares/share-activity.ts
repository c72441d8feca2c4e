import "server-only";
import { count, countDistinct, desc, eq, inArray, sql } from "drizzle-orm";
import { files, shareAccesses } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { envelope, iso } from "../present/envelope";
import { getOwnShareOrThrow } from "./load-share";

/**
 * GET /share/(id)/activity: every visit, preview and download through the link, and every
 * wrong password or code (`refused`), newest first (envelope of {id, date, kind, file, file_name,
 * visitor, env, geo}), with totals over the whole history: `downloads` (files and zips),
 * `previews`, `visits`, `refused`, `users` (distinct visitors who got in) and `last_access`. A
 * visitor is an anonymous hash of address and browser: enough to count people, not to identify them.
 */
export async function shareActivity(ctx: AuthedCtx, shareId: number, paging: { offset_start: number; nb_objects: number }) {
  const share = await getOwnShareOrThrow(ctx.db, ctx.actor.user, shareId);
  const mine = eq(shareAccesses.shareId, share.id);
  const [found, [totals]] = await Promise.all([
    ctx.db
      .select({ access: shareAccesses, fileName: files.name })
      .from(shareAccesses)
      .leftJoin(files, eq(files.id, shareAccesses.fileId))
      .where(mine)
      .orderBy(desc(shareAccesses.id))
      .limit(paging.nb_objects)
      .offset(paging.offset_start),
    ctx.db
      .select({
        all: count(),
        downloads: count(sql`CASE WHEN ${inArray(shareAccesses.kind, ["download", "zip"])} THEN 1 END`),
        previews: count(sql`CASE WHEN ${shareAccesses.kind} = 'preview' THEN 1 END`),
        visits: count(sql`CASE WHEN ${shareAccesses.kind} = 'visit' THEN 1 END`),
        refused: count(sql`CASE WHEN ${shareAccesses.kind} = 'refused' THEN 1 END`),
        users: countDistinct(sql`CASE WHEN ${shareAccesses.kind} <> 'refused' THEN ${shareAccesses.visitor} END`),
        last: sql<Date | null>`max(CASE WHEN ${shareAccesses.kind} <> 'refused' THEN ${shareAccesses.date} END)`.mapWith(shareAccesses.date),
      })
      .from(shareAccesses)
      .where(mine),
  ]);
  const objects = found.map(({ access, fileName }) => ({
    id: access.id,
    date: access.date.toISOString(),
    kind: access.kind,
    file: access.versionId,
    file_name: fileName,
    visitor: access.visitor,
    env: access.env,
    geo: access.geo,
  }));
  return {
    ...envelope(objects, paging.offset_start, Number(totals.all)),
    downloads: Number(totals.downloads),
    previews: Number(totals.previews),
    visits: Number(totals.visits),
    refused: Number(totals.refused),
    users: Number(totals.users),
    last_access: iso(totals.last),
  };
}
