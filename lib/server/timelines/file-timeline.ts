import "server-only";
import { and, desc, eq, isNull } from "drizzle-orm";
import { fileVersions } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { FILE_EVENT } from "../events/record-event";
import { getFileOrThrow } from "../files/get-file";
import { presentFiles } from "../files/present-files";
import type { Mode } from "../present/mode";
import { describeLinkShares } from "./link-share-events";
import { eventsOfVersions, loadEvents, presentEvents } from "./load-events";
import { aggregateDownloads, nestReplies } from "./shape-events";

/**
 * GET /file/(fileId)/timeline: each live version, newest first, as a File with its totals and
 * its events (api.md's settled types). Needs the read right, like listing the file. Replies sit
 * under the annotation they answer, even one of an older version; runs of downloads are grouped
 * (type 9). Totals count every event, grouped or nested.
 */
export async function readFileTimeline(ctx: AuthedCtx, versionId: number, mode: Mode) {
  const { file, folder, rights } = await getFileOrThrow(ctx.db, ctx.actor.user, versionId, "read");
  const versions = await ctx.db
    .select()
    .from(fileVersions)
    .where(and(eq(fileVersions.fileId, file.id), isNull(fileVersions.deletedAt)))
    .orderBy(desc(fileVersions.number));
  const [records, rows] = await Promise.all([
    presentFiles(ctx, versions.map((version) => ({ file, version, folder })), mode, { rights: new Map([[folder.id, rights]]) }),
    loadEvents(ctx.db, "file", file.id, eventsOfVersions(versions.map((v) => v.id))),
  ]);
  const presented = await presentEvents(ctx.db, rows);
  await describeLinkShares(ctx.db, file.id, presented);
  const topLevel = nestReplies(rows.map((row, i) => ({ row, event: presented[i] })));
  return records.map((record) => {
    const count = (type: number) => rows.filter((row) => row.versionId === record.id && row.type === type).length;
    return {
      ...record,
      total_annotations: count(FILE_EVENT.annotation),
      total_downloads: count(FILE_EVENT.download),
      total_dlinks: count(FILE_EVENT.linkShare),
      total_previews: count(FILE_EVENT.preview),
      events: aggregateDownloads(topLevel.filter(({ row }) => row.versionId === record.id).map(({ event }) => event)),
    };
  });
}
