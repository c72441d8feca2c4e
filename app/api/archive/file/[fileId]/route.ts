import { noContent } from "@/lib/contracts/common";
import { archiveFileParams, archiveResponse, readArchiveQuery, updateArchiveBody } from "@/lib/contracts/archives";
import { deleteArchive } from "@/lib/server/archives/delete-archive";
import { readArchive } from "@/lib/server/archives/read-archive";
import { updateArchive } from "@/lib/server/archives/update-archive";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/archive/file/(fileId): the Archive; ?download=1 streams the original bytes
export const GET = route({ params: archiveFileParams, query: readArchiveQuery, response: archiveResponse }, ({ ctx, params, query }) => readArchive(ctx, "file", params.fileId, query.download));

// PUT /api/archive/file/(fileId): rename, comment
export const PUT = route({ params: archiveFileParams, body: updateArchiveBody, response: archiveResponse }, ({ ctx, params, body }) => updateArchive(ctx, "file", params.fileId, body));

// DELETE /api/archive/file/(fileId): delete the archived file for good
export const DELETE = route({ params: archiveFileParams, response: noContent }, ({ ctx, params }) => deleteArchive(ctx, "file", params.fileId));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
