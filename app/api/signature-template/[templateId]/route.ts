import { signatureResponse, signatureTemplateParams } from "@/lib/contracts/signatures";
import { noContent } from "@/lib/contracts/common";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { deleteSignatureTemplate } from "@/lib/server/signatures/delete-signature-template";
import { readSignatureTemplate } from "@/lib/server/signatures/read-signature-template";

export const runtime = "nodejs";

// GET /api/signature-template/(id): one of my templates, with its documents, fields and roles
export const GET = route({ params: signatureTemplateParams, response: signatureResponse }, ({ ctx, params, req }) => readSignatureTemplate(ctx, params.templateId, appUrl(req)));

// DELETE /api/signature-template/(id): requests made from it are untouched
export const DELETE = route({ params: signatureTemplateParams, response: noContent }, ({ ctx, params }) => deleteSignatureTemplate(ctx, params.templateId));

export const { POST, PUT, PATCH } = otherMethods({ GET, DELETE });
