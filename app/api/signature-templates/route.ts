import { createTemplateBody, listSignaturesQuery, signatureListResponse, signatureResponse } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { createSignatureTemplate } from "@/lib/server/signatures/create-signature-template";
import { listSignatureRequests } from "@/lib/server/signatures/list-signature-requests";

export const runtime = "nodejs";

// GET /api/signature-templates: my templates (envelope; name filter, paging)
export const GET = route({ query: listSignaturesQuery, response: signatureListResponse }, ({ ctx, query, req }) => listSignatureRequests(ctx, "templates", query, appUrl(req)));

// POST /api/signature-templates: one of my requests saved as a template (documents, roles, fields)
export const POST = route({ body: createTemplateBody, response: { 201: signatureResponse } }, async ({ ctx, body, req }) => created(await createSignatureTemplate(ctx, body, appUrl(req))));

export const { PUT, PATCH, DELETE } = otherMethods({ GET, POST });
