"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { archiveListResponse, ArchiveResponse, archiveResponse } from "@/lib/contracts/archives";
import { filesKeys, type Item } from "./files";

export type { ArchiveResponse };

export const archivesKeys = { all: ["archives"] as const, list: () => [...archivesKeys.all, "list"] as const };

const archivePath = (a: Pick<ArchiveResponse, "type" | "object_id">) => `/api/archive/${a.type}/${a.object_id}`;

/** The caller's archives, newest first; asked again every few seconds while one is moving. */
export const archivesQuery = () =>
  queryOptions({
    queryKey: archivesKeys.list(),
    queryFn: () => api.get<typeof archiveListResponse>("/api/archives?nb_objects=1000").then((r) => r.objects),
    refetchInterval: (query) => (query.state.data?.some((a) => a.state !== "archived") ? 1500 : false),
  });

/** The original bytes of an archived file, as an attachment (a plain navigation). */
export const archiveDownloadUrl = (a: Pick<ArchiveResponse, "type" | "object_id">) => `${archivePath(a)}?download=1`;

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: archivesKeys.all }), queryClient.invalidateQueries({ queryKey: filesKeys.all })]);
}

export function useArchiveItem() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (item: Pick<Item, "kind" | "id">) => api.put<typeof archiveResponse>(`/api/${item.kind}/${item.id}/archive`, {}), onSuccess: invalidate });
}

export function useUnarchive() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: { archive: ArchiveResponse; parentId?: number }) => api.put<typeof archiveResponse>(`${archivePath(input.archive)}/unarchive`, input.parentId ? { parent_id: input.parentId } : {}),
    onSuccess: invalidate,
  });
}

export function useUpdateArchive() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: { archive: ArchiveResponse; name: string; comment: string }) => api.put<typeof archiveResponse>(archivePath(input.archive), { name: input.name, comment: input.comment }),
    onSuccess: invalidate,
  });
}

export function useDeleteArchive() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (archive: ArchiveResponse) => api.delete(archivePath(archive)), onSuccess: invalidate });
}
