"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { TrashItemResponse, trashListResponse } from "@/lib/contracts/trash";

export type TrashItem = TrashItemResponse;

export const trashKeys = {
  all: ["trash"] as const,
  list: () => [...trashKeys.all, "list"] as const,
};

/** Files and folders in one list, the latest deletion first. */
export const trashQuery = () =>
  queryOptions({
    queryKey: trashKeys.list(),
    queryFn: async () => {
      const list = await api.get<typeof trashListResponse>("/api/trashes");
      return [...list.folders, ...list.files].sort((a, b) => b.deletion.localeCompare(a.deletion));
    },
  });

/** Restoring or deleting changes the trash and the folder it goes back to: every file list is refreshed. */
function useInvalidateTrash() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: trashKeys.all }), queryClient.invalidateQueries({ queryKey: ["files"] })]);
}

/** PUT /api/trash/(id): back to where it was (or into `folderId`). */
export function useRestoreTrashItems() {
  const invalidate = useInvalidateTrash();
  return useMutation({
    mutationFn: async (input: { ids: number[]; folderId?: number }) => {
      for (const id of input.ids) await api.put(`/api/trash/${id}`, input.folderId === undefined ? {} : { folder_id: input.folderId });
    },
    onSettled: invalidate,
  });
}

export function useDeleteTrashItem() {
  const invalidate = useInvalidateTrash();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/api/trash/${id}`),
    onSettled: invalidate,
  });
}

export function useEmptyTrash() {
  const invalidate = useInvalidateTrash();
  return useMutation({
    mutationFn: () => api.delete("/api/trashes"),
    onSettled: invalidate,
  });
}
