import { folderListResponse, readFolderQuery } from "@/lib/contracts/folders";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listRootFolders } from "@/lib/server/spaces/list-root-folders";

export const runtime = "nodejs";

// GET /api/folders: the caller's root folders (private space, company folders, folders shared with them)
export const GET = route({ query: readFolderQuery, response: folderListResponse }, ({ ctx, query }) => listRootFolders(ctx, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
