import { objectPathQuery, objectPathResponse } from "@/lib/contracts/folders";
import { modeOf } from "@/lib/server/present/mode";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { getObjectByPath } from "@/lib/server/objects/get-object-by-path";

export const runtime = "nodejs";

// GET /api/objectpath?object=(path): the File or Folder at /<root name>/.../<name> as {object}
export const GET = route({ query: objectPathQuery, response: objectPathResponse }, ({ ctx, query }) => getObjectByPath(ctx, query.object, modeOf(query)));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
