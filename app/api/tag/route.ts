import { createTagBody, tagResponse } from "@/lib/contracts/tags";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { createTag } from "@/lib/server/tags/create-tag";

export const runtime = "nodejs";

// POST /api/tag: a tag {name, category_id?, private?} (api.md)
export const POST = route({ body: createTagBody, response: { 201: tagResponse } }, async ({ ctx, body }) => created(await createTag(ctx, body)));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
