import { exportQuery, exportRowsResponse, signatureParams } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { exportSignatureActivities } from "@/lib/server/signatures/export-signatures";

export const runtime = "nodejs";

// GET /api/signatures/(id)/activities/export: CSV (default) or JSON, columns a comma list
export const GET = route({ params: signatureParams, query: exportQuery, response: exportRowsResponse }, ({ ctx, params, query, req }) => exportSignatureActivities(ctx, params.signatureId, query, appUrl(req)));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
