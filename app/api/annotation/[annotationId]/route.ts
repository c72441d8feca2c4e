import { noContent } from "@/lib/contracts/common";
import { annotationParams, annotationResponse, updateAnnotationBody } from "@/lib/contracts/annotations";
import { deleteAnnotation } from "@/lib/server/annotations/delete-annotation";
import { readAnnotation } from "@/lib/server/annotations/read-annotation";
import { updateAnnotation } from "@/lib/server/annotations/update-annotation";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/annotation/(annotationId): read an annotation
export const GET = route({ params: annotationParams, response: annotationResponse }, ({ ctx, params }) => readAnnotation(ctx, params.annotationId));

// PUT /api/annotation/(annotationId): change the text (author only)
export const PUT = route({ params: annotationParams, body: updateAnnotationBody, response: annotationResponse }, ({ ctx, params, body }) => updateAnnotation(ctx, params.annotationId, body.text));

// DELETE /api/annotation/(annotationId): remove an annotation (author or delete right)
export const DELETE = route({ params: annotationParams, response: noContent }, ({ ctx, params }) => deleteAnnotation(ctx, params.annotationId));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
