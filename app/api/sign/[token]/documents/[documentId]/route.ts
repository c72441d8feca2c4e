import { notJson } from "@/lib/contracts/common";
import { signDocumentParams } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { readSigningDocument } from "@/lib/server/signatures/read-signing-document";

export const runtime = "nodejs";

// GET /api/sign/(token)/documents/(docId) (no account): the PDF as it stands, for pdf.js
export const GET = route({ auth: "none", params: signDocumentParams, response: notJson("application/pdf") }, ({ ctx, params }) => readSigningDocument(ctx, params.token, params.documentId));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
