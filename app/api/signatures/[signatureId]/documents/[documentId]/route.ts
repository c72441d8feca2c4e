import { noContent } from "@/lib/contracts/common";
import { addDocumentBody, signatureDocumentParams, signatureDocumentResponse, updateDocumentBody } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { addSignatureDocument } from "@/lib/server/signatures/add-signature-document";
import { deleteSignatureDocument } from "@/lib/server/signatures/delete-signature-document";
import { updateSignatureDocument } from "@/lib/server/signatures/update-signature-document";

export const runtime = "nodejs";

// POST /api/signatures/(id)/documents/(fileId): add a PDF the caller may read and download (the segment is a file id here)
export const POST = route({ params: signatureDocumentParams, body: addDocumentBody, response: { 201: signatureDocumentResponse } }, async ({ ctx, params, body }) => created(await addSignatureDocument(ctx, params.signatureId, params.documentId, body)));

// PUT /api/signatures/(id)/documents/(docId): name and initials
export const PUT = route({ params: signatureDocumentParams, body: updateDocumentBody, response: signatureDocumentResponse }, ({ ctx, params, body }) => updateSignatureDocument(ctx, params.signatureId, params.documentId, body));

// DELETE /api/signatures/(id)/documents/(docId)
export const DELETE = route({ params: signatureDocumentParams, response: noContent }, ({ ctx, params }) => deleteSignatureDocument(ctx, params.signatureId, params.documentId));

export const { GET, PATCH } = otherMethods({ POST, PUT, DELETE });
