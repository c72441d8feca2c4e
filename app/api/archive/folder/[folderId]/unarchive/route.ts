import { archiveFolderParams, archiveResponse, unarchiveBody } from "@/lib/contracts/archives";
import { unarchive } from "@/lib/server/archives/unarchive";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// PUT /api/archive/folder/(folderId)/unarchive: back to its place, or parent_id (a numbered name on a clash); Archive, state restoring
export const PUT = route({ params: archiveFolderParams, body: unarchiveBody, response: archiveResponse }, ({ ctx, params, body }) => unarchive(ctx, "folder", params.folderId, body));

export const { GET, POST, PATCH, DELETE } = otherMethods({ PUT });
