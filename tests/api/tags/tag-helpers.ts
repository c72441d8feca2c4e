import { expect } from "vitest";
import * as categoriesRoute from "@/app/api/tag/categories/route";
import * as oneCategoryRoute from "@/app/api/tag/category/[categoryId]/route";
import * as categoryRoute from "@/app/api/tag/category/route";
import * as elementRoute from "@/app/api/tag/[tagId]/[elementId]/[type]/route";
import * as activityRoute from "@/app/api/tag/[tagId]/activity/route";
import * as oneTagRoute from "@/app/api/tag/[tagId]/route";
import * as tagRoute from "@/app/api/tag/route";
import * as elementTagsRoute from "@/app/api/tags/[elementId]/[type]/route";
import * as listedRoute from "@/app/api/tags/listed/route";
import * as tagsRoute from "@/app/api/tags/route";
import { tagResponse } from "@/lib/contracts/tags";
import { unique } from "../../helpers/factories";
import { call } from "../../helpers/http";

export { activityRoute, categoriesRoute, categoryRoute, elementRoute, elementTagsRoute, listedRoute, oneCategoryRoute, oneTagRoute, tagRoute, tagsRoute };

type Q = Record<string, string | number>;
export const tagPath = (id: number) => ({ path: `/api/tag/${id}`, params: { tagId: String(id) } });
export const elementPath = (tagId: number, elementId: number, type: string) => ({
  path: `/api/tag/${tagId}/${elementId}/${type}`,
  params: { tagId: String(tagId), elementId: String(elementId), type },
});

export const postTag = (token: string, body: unknown) => call(tagRoute.POST, { method: "POST", path: "/api/tag", token, body });
export const getTag = (token: string, id: number) => call(oneTagRoute.GET, { ...tagPath(id), token });
export const putTag = (token: string, id: number, body: unknown) => call(oneTagRoute.PUT, { ...tagPath(id), method: "PUT", token, body });
export const deleteTag = (token: string, id: number) => call(oneTagRoute.DELETE, { ...tagPath(id), method: "DELETE", token });
export const listTags = (token: string, query: Q = {}) => call(tagsRoute.GET, { path: "/api/tags", token, query });
export const attach = (token: string, tagId: number, elementId: number, type = "file") => call(elementRoute.POST, { ...elementPath(tagId, elementId, type), method: "POST", token });
export const detach = (token: string, tagId: number, elementId: number, type = "file") => call(elementRoute.DELETE, { ...elementPath(tagId, elementId, type), method: "DELETE", token });
export const elementTags = (token: string, elementId: number, type = "file") =>
  call(elementTagsRoute.GET, { path: `/api/tags/${elementId}/${type}`, params: { elementId: String(elementId), type }, token });
export const tagActivity = (token: string, id: number, query: Q = {}) => call(activityRoute.GET, { path: `/api/tag/${id}/activity`, params: { tagId: String(id) }, token, query });
export const listed = (token: string, query: Q) => call(listedRoute.GET, { path: "/api/tags/listed", token, query });

/** A fresh tag of `token`'s user, parsed by the contract's schema. */
export async function makeTag(token: string, body: Record<string, unknown> = {}) {
  const res = await postTag(token, { name: unique("tag "), ...body });
  expect(res.status, res.text).toBe(201);
  return tagResponse.strict().parse(res.body);
}

export const postCategory = (token: string, body: unknown) => call(categoryRoute.POST, { method: "POST", path: "/api/tag/category", token, body });
const categoryPath = (id: number) => ({ path: `/api/tag/category/${id}`, params: { categoryId: String(id) } });
export const getCategory = (token: string, id: number) => call(oneCategoryRoute.GET, { ...categoryPath(id), token });
export const putCategory = (token: string, id: number, body: unknown) => call(oneCategoryRoute.PUT, { ...categoryPath(id), method: "PUT", token, body });
export const deleteCategory = (token: string, id: number) => call(oneCategoryRoute.DELETE, { ...categoryPath(id), method: "DELETE", token });
export const listCategories = (token: string, query: Q = {}) => call(categoriesRoute.GET, { path: "/api/tag/categories", token, query });
