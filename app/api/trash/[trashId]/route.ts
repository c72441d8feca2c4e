import { noContent } from "@/lib/contracts/common";
import { restoredResponse, restoreTrashBody, trashItemResponse, trashParams } from "@/lib/contracts/trash";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { deleteTrashItem } from "@/lib/server/trash/delete-trash-item";
import { readTrashItem } from "@/lib/server/trash/get-trash-item";
import { restoreTrashItem } from "@/lib/server/trash/restore-trash-item";

export const runtime = "nodejs";

// GET /api/trash/(trashId): read a trash item
export const GET = route({ params: trashParams, response: trashItemResponse }, ({ ctx, params }) => readTrashItem(ctx, params.trashId));

// PUT /api/trash/(trashId): restore (to the original place, or `folder_id`); returns the File or Folder
export const PUT = route({ params: trashParams, body: restoreTrashBody, response: restoredResponse }, ({ ctx, params, body }) => restoreTrashItem(ctx, params.trashId, body));

// DELETE /api/trash/(trashId): remove the item for good
export const DELETE = route({ params: trashParams, response: noContent }, ({ ctx, params }) => deleteTrashItem(ctx, params.trashId));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
