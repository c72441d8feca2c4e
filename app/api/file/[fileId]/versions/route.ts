import { fileParams, fileVersionsResponse, listVersionsQuery } from "@/lib/contracts/files";
import { listFileVersions } from "@/lib/server/files/list-versions";
import { otherMethods } from "@/lib/server/http/methods";
import { modeOf } from "@/lib/server/present/mode";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/file/(fileId)/versions: the file's live versions, newest first
export const GET = route({ params: fileParams, query: listVersionsQuery, response: fileVersionsResponse }, ({ ctx, params, query }) => listFileVersions(ctx, params.fileId, modeOf(query)));

export const { PUT, PATCH, POST, DELETE } = otherMethods({ GET });
