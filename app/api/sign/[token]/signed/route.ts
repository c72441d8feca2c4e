import { notJson } from "@/lib/contracts/common";
import { signTokenParams } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { downloadSignedCopy } from "@/lib/server/signatures/download-signed";

export const runtime = "nodejs";

// GET /api/sign/(copyToken)/signed (no account): the signed documents, by the copy link mailed on completion
export const GET = route({ auth: "none", params: signTokenParams, response: notJson("application/pdf") }, ({ ctx, params }) => downloadSignedCopy(ctx, params.token));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
