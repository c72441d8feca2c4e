import { listTemplatesQuery, templateFolderParams, templateListResponse } from "@/lib/contracts/templates";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listTemplates } from "@/lib/server/templates/list-templates";

export const runtime = "nodejs";

// GET /api/template/files/(folderId): the file templates offered in a folder (platform-wide ones, the folder's and its ancestors')
export const GET = route({ params: templateFolderParams, query: listTemplatesQuery, response: templateListResponse }, ({ ctx, params, query }) => listTemplates(ctx, params.folderId, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
