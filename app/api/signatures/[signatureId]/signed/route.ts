import { notJson } from "@/lib/contracts/common";
import { signatureParams } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { downloadSigned } from "@/lib/server/signatures/download-signed";

export const runtime = "nodejs";

// GET /api/signatures/(id)/signed: the signed PDF, or a zip of several (409 until done)
export const GET = route({ params: signatureParams, response: notJson("application/pdf") }, ({ ctx, params }) => downloadSigned(ctx, params.signatureId));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
