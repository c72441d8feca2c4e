import { addFieldBody, signatureDocumentParams, signatureFieldResponse } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { addSignatureField } from "@/lib/server/signatures/add-signature-field";

export const runtime = "nodejs";

// POST /api/signatures/(id)/documents/(docId)/fields: a field on a page for one signer (400 outside the page)
export const POST = route({ params: signatureDocumentParams, body: addFieldBody, response: { 201: signatureFieldResponse } }, async ({ ctx, params, body }) => created(await addSignatureField(ctx, params.signatureId, params.documentId, body)));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
