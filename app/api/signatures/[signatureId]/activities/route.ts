import { z } from "zod";
import { activityListResponse, signatureParams } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { paging } from "@/lib/contracts/common";
import { appUrl } from "@/lib/server/mail/app-url";
import { listSignatureActivities } from "@/lib/server/signatures/list-signature-activities";

export const runtime = "nodejs";

// GET /api/signatures/(id)/activities: the request's history (envelope, oldest first)
export const GET = route({ params: signatureParams, query: z.object(paging), response: activityListResponse }, ({ ctx, params, query, req }) => listSignatureActivities(ctx, params.signatureId, query, appUrl(req)));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
