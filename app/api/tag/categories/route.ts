import { categoryListResponse, listCategoriesQuery } from "@/lib/contracts/tags";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listCategories } from "@/lib/server/tags/list-categories";

export const runtime = "nodejs";

// GET /api/tag/categories: every tag category (full: with the tags the caller sees)
export const GET = route({ query: listCategoriesQuery, response: categoryListResponse }, ({ ctx, query }) => listCategories(ctx, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
