import { noContent } from "@/lib/contracts/common";
import { fullQuery, signatureParams, signatureResponse, updateSignatureBody } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { appUrl } from "@/lib/server/mail/app-url";
import { deleteSignatureRequest } from "@/lib/server/signatures/delete-signature-request";
import { readSignatureRequest } from "@/lib/server/signatures/read-signature-request";
import { updateSignatureRequest } from "@/lib/server/signatures/update-signature-request";

export const runtime = "nodejs";

// GET /api/signatures/(id): the request with documents, fields, actors (links for the initiator), activities and children
export const GET = route({ params: signatureParams, query: fullQuery, response: signatureResponse }, ({ ctx, params, req }) => readSignatureRequest(ctx, params.signatureId, appUrl(req), { full: true }));

// PUT /api/signatures/(id): settings while draft (is_template: 1 saves it as a template); reminders and expiry while ongoing
export const PUT = route({ params: signatureParams, body: updateSignatureBody, response: signatureResponse }, ({ ctx, params, body, req }) => updateSignatureRequest(ctx, params.signatureId, body, appUrl(req)));

// DELETE /api/signatures/(id): drafts only (409 otherwise: cancel instead)
export const DELETE = route({ params: signatureParams, response: noContent }, ({ ctx, params }) => deleteSignatureRequest(ctx, params.signatureId));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
