import { trashItemResponse } from "@/lib/contracts/trash";
import { deleteFileQuery, fileParams, fileResponse, readFileQuery, updateFileBody, updateFileQuery } from "@/lib/contracts/files";
import { deleteFile } from "@/lib/server/files/delete-file";
import { readFile } from "@/lib/server/files/read-file";
import { updateFile } from "@/lib/server/files/update-file";
import { otherMethods } from "@/lib/server/http/methods";
import { modeOf } from "@/lib/server/present/mode";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/file/(fileId): read a file version (`meta`, `latest`, `full`, `light`)
export const GET = route({ params: fileParams, query: readFileQuery, response: fileResponse }, ({ ctx, params, query }) =>
  readFile(ctx, params.fileId, { meta: query.meta, latest: query.latest, mode: modeOf(query) }),
);

// PUT /api/file/(fileId): rename (`name`) and/or move (`parent_id`)
export const PUT = route({ params: fileParams, query: updateFileQuery, body: updateFileBody, response: fileResponse }, ({ ctx, params, query, body }) =>
  updateFile(ctx, params.fileId, body, modeOf(query)),
);

// DELETE /api/file/(fileId): to the trash (200 Trash item) or for good (`trash=0`, 204); `versions` all|none|previous
export const DELETE = route({ params: fileParams, query: deleteFileQuery, response: trashItemResponse }, ({ ctx, params, query }) => deleteFile(ctx, params.fileId, query));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
