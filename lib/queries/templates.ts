"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { fileResponse } from "@/lib/contracts/files";
import type { templateListResponse, TemplateResponse, templateResponse } from "@/lib/contracts/templates";
import { filesKeys } from "./files";

export type { TemplateResponse };

export const templatesKeys = {
  all: ["templates"] as const,
  offered: (folderId: number) => [...templatesKeys.all, "offered", folderId] as const,
};

/** The templates offered in a folder: the platform's, the folder's and its ancestors'. */
export const offeredTemplatesQuery = (folderId: number) =>
  queryOptions({
    queryKey: templatesKeys.offered(folderId),
    queryFn: () => api.get<typeof templateListResponse>(`/api/template/files/${folderId}?nb_objects=1000`).then((r) => r.objects),
  });

/** A new file from a template (the server shares the bytes); the folder's listing changes. */
export function useCopyTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { templateId: number; parentId: number; name: string }) =>
      api.post<typeof fileResponse>("/api/template/file/copy", { template_id: input.templateId, parent_id: input.parentId, name: input.name }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: filesKeys.all }),
  });
}

/** Makes a file a template, offered in its folder and below (or, for administrators, on the whole platform). */
export function useCreateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { fileId: number; name: string; description: string; platform: boolean }) =>
      api.post<typeof templateResponse>("/api/template/file", { file_id: input.fileId, name: input.name, description: input.description, ...(input.platform ? { parent_id: 0 } : {}) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesKeys.all }),
  });
}

export function useDeleteTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (templateId: number) => api.delete(`/api/template/file/${templateId}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesKeys.all }),
  });
}
