import { readFolderQuery, readFolderResponse, rootTypeParams } from "@/lib/contracts/folders";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { readRoot } from "@/lib/server/spaces/read-root";

export const runtime = "nodejs";

// GET /api/root/(type): the private, company or shared space as a folder whose content lists its first level
export const GET = route({ params: rootTypeParams, query: readFolderQuery, response: readFolderResponse }, ({ ctx, params, query }) => readRoot(ctx, params.type, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
