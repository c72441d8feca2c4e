import { signatureResponse, signatureTemplateParams, useTemplateBody } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { createRequestFromTemplate } from "@/lib/server/signatures/create-request-from-template";

export const runtime = "nodejs";

// POST /api/signature-template/(id)/use: a new draft from the template, its roles given to people
export const POST = route({ params: signatureTemplateParams, body: useTemplateBody, response: { 201: signatureResponse } }, async ({ ctx, params, body, req }) => created(await createRequestFromTemplate(ctx, params.templateId, body, appUrl(req))));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
