import { trashItemResponse } from "@/lib/contracts/trash";
import { deleteFolderQuery, folderParams, folderResponse, readFolderQuery, readFolderResponse, updateFolderBody, updateFolderQuery } from "@/lib/contracts/folders";
import { deleteFolder } from "@/lib/server/folders/delete-folder";
import { readFolder } from "@/lib/server/folders/read-folder";
import { updateFolder } from "@/lib/server/folders/update-folder";
import { modeOf } from "@/lib/server/present/mode";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/folder/(folderId): the folder with its content (`depth`, `filter`, paging), or a search below it with `recursive`
export const GET = route({ params: folderParams, query: readFolderQuery, response: readFolderResponse }, ({ ctx, params, query }) => readFolder(ctx, params.folderId, query));

// PUT /api/folder/(folderId): rename, move, quota and purge frequency
export const PUT = route({ params: folderParams, query: updateFolderQuery, body: updateFolderBody, response: folderResponse }, ({ ctx, params, query, body }) =>
  updateFolder(ctx, params.folderId, body, { recursive: query.recursive, mode: modeOf(query) }),
);

// DELETE /api/folder/(folderId): to the trash (200 Trash item) or, with trash=0, for good (204)
export const DELETE = route({ params: folderParams, query: deleteFolderQuery, response: trashItemResponse }, ({ ctx, params, query }) => deleteFolder(ctx, params.folderId, { trash: query.trash }));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
