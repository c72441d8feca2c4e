import { noContent } from "@/lib/contracts/common";
import { tagElementParams, tagResponse } from "@/lib/contracts/tags";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { attachTag } from "@/lib/server/tags/attach-tag";
import { detachTag } from "@/lib/server/tags/detach-tag";

export const runtime = "nodejs";

// POST /api/tag/(tagId)/(elementId)/(type): put a tag on a file or a folder (201, or 200 when already there)
export const POST = route({ params: tagElementParams, response: { 200: tagResponse, 201: tagResponse } }, async ({ ctx, params }) => {
  const { tag, created } = await attachTag(ctx, params.tagId, params.type, params.elementId);
  return Response.json(tag, { status: created ? 201 : 200 });
});

// DELETE /api/tag/(tagId)/(elementId)/(type): take it off
export const DELETE = route({ params: tagElementParams, response: noContent }, ({ ctx, params }) => detachTag(ctx, params.tagId, params.type, params.elementId));

export const { GET, PUT, PATCH } = otherMethods({ POST, DELETE });
