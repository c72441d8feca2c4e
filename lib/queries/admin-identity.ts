"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { identityProviderListResponse, IdentityProviderResponse, identityProviderResponse, syncIdentityProviderResponse, testDetailsResponse } from "@/lib/contracts/identity-providers";

export type IdentityProvider = IdentityProviderResponse & Record<string, unknown>;
export type ProviderForm = Record<string, unknown>;

export const adminIdentityKeys = {
  all: ["admin", "identity"] as const,
  list: () => [...adminIdentityKeys.all, "list"] as const,
};

/** GET /api/identity/providers (every provider: a platform has a handful). `poll` while a synchronisation runs. */
export const identityProvidersQuery = (poll = false) =>
  queryOptions({
    queryKey: adminIdentityKeys.list(),
    queryFn: () => api.get<typeof identityProviderListResponse>("/api/identity/providers?nb_objects=1000"),
    refetchInterval: poll ? 2000 : false,
  });

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: adminIdentityKeys.all });
}

export function useSaveProvider() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, form }: { id?: string; form: ProviderForm }) =>
      id ? api.put<typeof identityProviderResponse>(`/api/identity/provider/${encodeURIComponent(id)}`, form) : api.post<typeof identityProviderResponse>("/api/identity/provider", form),
    onSettled: invalidate,
  });
}

export function useDeleteProvider() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: string) => api.delete(`/api/identity/provider/${encodeURIComponent(id)}`), onSettled: invalidate });
}

/** POST /api/identity/provider/test?details=1: a configuration (with `id`, stored secrets fill the blanks), never saved; the outcome with its reason. */
export function useTestProvider() {
  return useMutation({ mutationFn: (form: ProviderForm) => api.post<typeof testDetailsResponse>("/api/identity/provider/test?details=1", form) });
}

export function useSyncProvider() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.post<typeof syncIdentityProviderResponse>(`/api/identity/provider/${encodeURIComponent(id)}/sync`),
    onSettled: invalidate,
  });
}
