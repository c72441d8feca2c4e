"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { categoryListResponse, CategoryResponse, listedTagsResponse, tagListResponse, TagResponse, tagResponse } from "@/lib/contracts/tags";
import { filesKeys } from "./files";

export type { CategoryResponse, TagResponse };
export type TagTarget = { type: "file" | "folder"; id: number };

export const tagsKeys = {
  all: ["tags"] as const,
  list: () => [...tagsKeys.all, "list"] as const,
  categories: () => [...tagsKeys.all, "categories"] as const,
  element: (t: TagTarget) => [...tagsKeys.all, "element", t.type, t.id] as const,
  listed: (ids: string) => [...tagsKeys.all, "listed", ids] as const,
};

/** Every tag the caller sees (public ones and their private ones), by name. */
export const tagsQuery = () =>
  queryOptions({ queryKey: tagsKeys.list(), queryFn: () => api.get<typeof tagListResponse>("/api/tags?nb_objects=1000").then((r) => r.objects), staleTime: 60_000 });

export const categoriesQuery = () =>
  queryOptions({ queryKey: tagsKeys.categories(), queryFn: () => api.get<typeof categoryListResponse>("/api/tag/categories?nb_objects=1000").then((r) => r.objects), staleTime: 300_000 });

/** The tags on one file (by File id) or folder that the caller sees. */
export const elementTagsQuery = (target: TagTarget) =>
  queryOptions({
    queryKey: tagsKeys.element(target),
    queryFn: () => api.get<typeof tagListResponse>(`/api/tags/${target.id}/${target.type}?nb_objects=1000`).then((r) => r.objects),
  });

/** The tags of listed rows (one request per page of the list), keyed "file:<id>" and "folder:<id>" like the rows. */
export const listedTagsQuery = (rows: { kind: "file" | "folder"; id: number }[]) => {
  const files = rows.filter((r) => r.kind === "file").map((r) => r.id);
  const folders = rows.filter((r) => r.kind === "folder").map((r) => r.id);
  const ids = `files=${files.join(",")}&folders=${folders.join(",")}`;
  return queryOptions({
    queryKey: tagsKeys.listed(ids),
    queryFn: async () => {
      const found = await api.get<typeof listedTagsResponse>(`/api/tags/listed?${ids}`);
      const byRow = new Map<string, TagResponse[]>();
      for (const [id, list] of Object.entries(found.files)) byRow.set(`file:${id}`, list);
      for (const [id, list] of Object.entries(found.folders)) byRow.set(`folder:${id}`, list);
      return byRow;
    },
    enabled: rows.length > 0,
    staleTime: 30_000,
  });
};

function useInvalidateTags() {
  const queryClient = useQueryClient();
  // Search results filtered by tags change with them.
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: tagsKeys.all }), queryClient.invalidateQueries({ queryKey: [...filesKeys.all, "search"] })]);
}

export function useCreateTag() {
  const invalidate = useInvalidateTags();
  return useMutation({
    mutationFn: (input: { name: string; private: boolean; categoryId?: number }) =>
      api.post<typeof tagResponse>("/api/tag", { name: input.name, private: input.private, ...(input.categoryId ? { category_id: input.categoryId } : {}) }),
    onSuccess: invalidate,
  });
}

export function useAttachTag() {
  const invalidate = useInvalidateTags();
  return useMutation({
    mutationFn: (input: { tagId: number; target: TagTarget }) => api.post<typeof tagResponse>(`/api/tag/${input.tagId}/${input.target.id}/${input.target.type}`),
    onSuccess: invalidate,
  });
}

export function useDetachTag() {
  const invalidate = useInvalidateTags();
  return useMutation({
    mutationFn: (input: { tagId: number; target: TagTarget }) => api.delete(`/api/tag/${input.tagId}/${input.target.id}/${input.target.type}`),
    onSuccess: invalidate,
  });
}
