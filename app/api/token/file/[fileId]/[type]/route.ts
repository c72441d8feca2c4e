import { fileTokenParams } from "@/lib/contracts/files";
import { tokenResponse } from "@/lib/contracts/links";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { createFileToken } from "@/lib/server/tokens/create-file-token";

export const runtime = "nodejs";

// POST /api/token/file/(fileId)/(type): a 15-minute token to preview, edit or download one version
export const POST = route({ params: fileTokenParams, response: tokenResponse }, ({ ctx, params }) => createFileToken(ctx, params.fileId, params.type));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
