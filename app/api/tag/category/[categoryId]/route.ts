import { noContent } from "@/lib/contracts/common";
import { categoryParams, categoryResponse, updateCategoryBody } from "@/lib/contracts/tags";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { deleteCategory } from "@/lib/server/tags/delete-category";
import { readCategory } from "@/lib/server/tags/read-category";
import { updateCategory } from "@/lib/server/tags/update-category";

export const runtime = "nodejs";

// GET /api/tag/category/(categoryId): a category with the tags the caller sees
export const GET = route({ params: categoryParams, response: categoryResponse }, ({ ctx, params }) => readCategory(ctx, params.categoryId));

// PUT /api/tag/category/(categoryId): rename, recolour (administrators)
export const PUT = route({ auth: "admin", params: categoryParams, body: updateCategoryBody, response: categoryResponse }, ({ ctx, params, body }) => updateCategory(ctx, params.categoryId, body));

// DELETE /api/tag/category/(categoryId): its tags stay, without a category (administrators)
export const DELETE = route({ auth: "admin", params: categoryParams, response: noContent }, ({ ctx, params }) => deleteCategory(ctx, params.categoryId));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
