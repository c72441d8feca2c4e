import { notJson } from "@/lib/contracts/common";
import { fileParams } from "@/lib/contracts/files";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { serveFileRendition } from "@/lib/server/previews/serve-file-rendition";

export const runtime = "nodejs";

// GET /api/file/(fileId)/rendition (beyond the contract): an office document's PDF or a video's web-playable copy, for the web preview
export const GET = route({ params: fileParams, response: notJson("application/pdf or video/mp4") }, ({ ctx, params, req }) => serveFileRendition(ctx, params.fileId, req));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
