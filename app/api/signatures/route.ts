import { createSignatureBody, listSignaturesQuery, signatureListResponse, signatureResponse } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { createSignatureRequest } from "@/lib/server/signatures/create-signature-request";
import { listSignatureRequests } from "@/lib/server/signatures/list-signature-requests";

export const runtime = "nodejs";

// GET /api/signatures: my signature requests (envelope; name and status filters, paging)
export const GET = route({ query: listSignaturesQuery, response: signatureListResponse }, ({ ctx, query, req }) => listSignatureRequests(ctx, "mine", query, appUrl(req)));

// POST /api/signatures: a new draft (or a copy of one of my templates with template_id)
export const POST = route({ body: createSignatureBody, response: { 201: signatureResponse } }, async ({ ctx, body, req }) => created(await createSignatureRequest(ctx, body, appUrl(req))));

export const { PUT, PATCH, DELETE } = otherMethods({ GET, POST });
