import "server-only";
import type { AuthedCtx } from "../context";
import { getFolderOrThrow } from "../folders/get-folder";
import { presentFolders } from "../folders/present-folders";
import type { Mode } from "../present/mode";
import { loadEvents, presentEvents } from "./load-events";
import { nestReplies } from "./shape-events";

/** GET /folder/(folderId)/timeline: the Folder plus its events, newest first, replies under their annotation. Needs the read right. */
export async function readFolderTimeline(ctx: AuthedCtx, folderId: number, mode: Mode) {
  const { folder, rights } = await getFolderOrThrow(ctx.db, ctx.actor.user, folderId, "read");
  const [[json], rows] = await Promise.all([presentFolders(ctx, [folder], mode, new Map([[folder.id, rights]])), loadEvents(ctx.db, "folder", folder.id)]);
  const events = (await presentEvents(ctx.db, rows)).map((event) => ({ event }));
  return { ...json, events: nestReplies(events).map(({ event }) => event) };
}
