import { archiveListResponse, listArchivesQuery } from "@/lib/contracts/archives";
import { listArchives } from "@/lib/server/archives/list-archives";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/archives: the caller's archives (administrators: all), newest first
export const GET = route({ query: listArchivesQuery, response: archiveListResponse }, ({ ctx, query }) => listArchives(ctx, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
