"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { StarResponse, starsResponse } from "@/lib/contracts/stars";
import { filesKeys } from "./files";

export type { StarResponse };
export type StarTarget = { kind: "file" | "folder"; id: number };

/** Under the files' keys: a rename, move or deletion anywhere refreshes the starred list too. */
export const starsKeys = { list: () => [...filesKeys.all, "stars"] as const };

/** GET /api/stars: the caller's starred items they may still see, newest first. */
export const starsQuery = () =>
  queryOptions({ queryKey: starsKeys.list(), queryFn: () => api.get<typeof starsResponse>("/api/stars?nb_objects=1000").then((r) => r.objects), staleTime: 30_000 });

/** "file:12" / "folder:3", as rows are keyed; a file by its current version id, as listings show it. */
export const starKey = (t: StarTarget) => `${t.kind}:${t.id}`;
export const starredKeys = (list: StarResponse[] | undefined) => new Set((list ?? []).map((s) => starKey({ kind: s.type, id: s.id })));

/** PUT or DELETE /api/star/(file|folder)/(id). */
export function useToggleStar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ target, starred }: { target: StarTarget; starred: boolean }) =>
      starred ? api.put(`/api/star/${target.kind}/${target.id}`, {}) : api.delete(`/api/star/${target.kind}/${target.id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: starsKeys.list() }),
  });
}
