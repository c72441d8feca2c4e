import { noContent } from "@/lib/contracts/common";
import { signatureFieldParams, signatureFieldResponse, updateFieldBody } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { deleteSignatureField } from "@/lib/server/signatures/delete-signature-field";
import { updateSignatureField } from "@/lib/server/signatures/update-signature-field";

export const runtime = "nodejs";

// PUT /api/signatures/(id)/documents/(docId)/fields/(fieldId): move, resize or change a field
export const PUT = route({ params: signatureFieldParams, body: updateFieldBody, response: signatureFieldResponse }, ({ ctx, params, body }) => updateSignatureField(ctx, params.signatureId, params.documentId, params.fieldId, body));

// DELETE /api/signatures/(id)/documents/(docId)/fields/(fieldId)
export const DELETE = route({ params: signatureFieldParams, response: noContent }, ({ ctx, params }) => deleteSignatureField(ctx, params.signatureId, params.documentId, params.fieldId));

export const { GET, POST, PATCH } = otherMethods({ PUT, DELETE });
