import { annotationResponse, createAnnotationBody } from "@/lib/contracts/annotations";
import { createAnnotation } from "@/lib/server/annotations/create-annotation";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// POST /api/annotation: annotate a file or folder, or reply with `conversation`
export const POST = route({ body: createAnnotationBody, response: { 201: annotationResponse } }, async ({ ctx, body }) => created(await createAnnotation(ctx, body)));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
