import { noContent } from "@/lib/contracts/common";
import { archiveFolderParams, archiveResponse, readArchiveQuery, updateArchiveBody } from "@/lib/contracts/archives";
import { deleteArchive } from "@/lib/server/archives/delete-archive";
import { readArchive } from "@/lib/server/archives/read-archive";
import { updateArchive } from "@/lib/server/archives/update-archive";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/archive/folder/(folderId): the Archive
export const GET = route({ params: archiveFolderParams, query: readArchiveQuery, response: archiveResponse }, ({ ctx, params, query }) => readArchive(ctx, "folder", params.folderId, query.download));

// PUT /api/archive/folder/(folderId): rename, comment
export const PUT = route({ params: archiveFolderParams, body: updateArchiveBody, response: archiveResponse }, ({ ctx, params, body }) => updateArchive(ctx, "folder", params.folderId, body));

// DELETE /api/archive/folder/(folderId): delete the archived folder for good
export const DELETE = route({ params: archiveFolderParams, response: noContent }, ({ ctx, params }) => deleteArchive(ctx, "folder", params.folderId));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
