import { folderListResponse, portalParams, readFolderQuery } from "@/lib/contracts/folders";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { readPortal } from "@/lib/server/spaces/read-portal";

export const runtime = "nodejs";

// GET /api/root/portal/(filter): portal folders, `me` (private space), `shared` or `all`
export const GET = route({ params: portalParams, query: readFolderQuery, response: folderListResponse }, ({ ctx, params, query }) => readPortal(ctx, params.filter, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
