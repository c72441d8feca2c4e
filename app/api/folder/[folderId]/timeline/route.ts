import { folderTimelineResponse } from "@/lib/contracts/timelines";
import { folderParams } from "@/lib/contracts/folders";
import { listVersionsQuery } from "@/lib/contracts/files";
import { otherMethods } from "@/lib/server/http/methods";
import { modeOf } from "@/lib/server/present/mode";
import { route } from "@/lib/server/http/route";
import { readFolderTimeline } from "@/lib/server/timelines/folder-timeline";

export const runtime = "nodejs";

// GET /api/folder/(folderId)/timeline: the Folder plus its events, newest first
export const GET = route({ params: folderParams, query: listVersionsQuery, response: folderTimelineResponse }, ({ ctx, params, query }) => readFolderTimeline(ctx, params.folderId, modeOf(query)));

export const { PUT, PATCH, POST, DELETE } = otherMethods({ GET });
