import { exportQuery, exportRowsResponse } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { exportSignatureRequests } from "@/lib/server/signatures/export-signatures";

export const runtime = "nodejs";

// GET /api/signatures/export: CSV (format=csv, the default) or JSON (format=json), columns a comma list
export const GET = route({ query: exportQuery, response: exportRowsResponse }, ({ ctx, query, req }) => exportSignatureRequests(ctx, "mine", query, appUrl(req)));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
