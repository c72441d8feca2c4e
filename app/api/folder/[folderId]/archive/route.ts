import { archiveFolderParams, archiveResponse } from "@/lib/contracts/archives";
import { archiveFolder } from "@/lib/server/archives/archive-object";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// PUT /api/folder/(folderId)/archive: the folder and its subtree leave the live tree at once; a job moves the bytes (Archive, state pending)
export const PUT = route({ params: archiveFolderParams, response: archiveResponse }, ({ ctx, params }) => archiveFolder(ctx, params.folderId));

export const { GET, POST, PATCH, DELETE } = otherMethods({ PUT });
