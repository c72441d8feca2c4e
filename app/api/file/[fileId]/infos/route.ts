import { documentInfosResponse, previewParams } from "@/lib/contracts/previews";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { readDocumentInfos } from "@/lib/server/previews/read-document-infos";

export const runtime = "nodejs";

// GET /api/file/(fileId)/infos: {length}, the number of pages of a PDF
export const GET = route({ params: previewParams, response: documentInfosResponse }, ({ ctx, params }) => readDocumentInfos(ctx, params.fileId));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
