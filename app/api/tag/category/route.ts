import { categoryResponse, createCategoryBody } from "@/lib/contracts/tags";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { createCategory } from "@/lib/server/tags/create-category";

export const runtime = "nodejs";

// POST /api/tag/category: a tag category {name, color?} (administrators)
export const POST = route({ auth: "admin", body: createCategoryBody, response: { 201: categoryResponse } }, async ({ ctx, body }) => created(await createCategory(ctx, body)));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
