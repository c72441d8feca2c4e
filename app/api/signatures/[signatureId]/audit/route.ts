import { notJson } from "@/lib/contracts/common";
import { signatureParams } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { auditTrail } from "@/lib/server/signatures/audit-trail";

export const runtime = "nodejs";

// GET /api/signatures/(id)/audit: the sealed audit-trail PDF, built from the activities (any status)
export const GET = route({ params: signatureParams, response: notJson("application/pdf") }, ({ ctx, params }) => auditTrail(ctx, params.signatureId));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
