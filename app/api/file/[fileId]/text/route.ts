import { textStateResponse } from "@/lib/contracts/texts";
import { previewParams } from "@/lib/contracts/previews";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { readTextState } from "@/lib/server/texts/read-text-state";

export const runtime = "nodejs";

// GET /api/file/(fileId)/text: the state of the current version's searchable text (extraction, OCR, language, missing tool)
export const GET = route({ params: previewParams, response: textStateResponse }, ({ ctx, params }) => readTextState(ctx, params.fileId));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
