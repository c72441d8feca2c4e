import { noContent } from "@/lib/contracts/common";
import { tagParams, tagResponse, updateTagBody } from "@/lib/contracts/tags";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { deleteTag } from "@/lib/server/tags/delete-tag";
import { readTag } from "@/lib/server/tags/read-tag";
import { updateTag } from "@/lib/server/tags/update-tag";

export const runtime = "nodejs";

// GET /api/tag/(tagId): a tag the caller sees
export const GET = route({ params: tagParams, response: tagResponse }, ({ ctx, params }) => readTag(ctx, params.tagId));

// PUT /api/tag/(tagId): rename, change category (owner; administrators for public tags)
export const PUT = route({ params: tagParams, body: updateTagBody, response: tagResponse }, ({ ctx, params, body }) => updateTag(ctx, params.tagId, body));

// DELETE /api/tag/(tagId): the tag and its attachments
export const DELETE = route({ params: tagParams, response: noContent }, ({ ctx, params }) => deleteTag(ctx, params.tagId));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
