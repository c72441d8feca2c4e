import { fileActivityQuery, fileActivityResponse } from "@/lib/contracts/files";
import { listFileActivity } from "@/lib/server/files/list-file-activity";
import { otherMethods } from "@/lib/server/http/methods";
import { modeOf } from "@/lib/server/present/mode";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/file/activity: the caller's recent versions, or with `all` the platform's last 200 they may read
export const GET = route({ query: fileActivityQuery, response: fileActivityResponse }, ({ ctx, query }) =>
  listFileActivity(ctx, { all: query.all, offset: query.offset_start, limit: query.nb_objects, mode: modeOf(query) }),
);

export const { PUT, PATCH, POST, DELETE } = otherMethods({ GET });
