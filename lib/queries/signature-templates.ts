"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { signatureListResponse, signatureResponse } from "@/lib/contracts/signatures";
import { signaturesKeys } from "./signatures";

/** Signature templates (issue 31): my requests saved with their documents, roles and fields. */
export const signatureTemplatesQuery = () =>
  queryOptions({ queryKey: [...signaturesKeys.all, "templates"] as const, queryFn: () => api.get<typeof signatureListResponse>("/api/signature-templates?nb_objects=100") });

export function useSaveTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (signatureId: number) => api.post<typeof signatureResponse>("/api/signature-templates", { signature_id: signatureId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...signaturesKeys.all, "templates"] }),
  });
}

export type TemplateRole = { role: number; infos: { email: string; first_name: string; last_name: string } };

/** POST /signature-template/(id)/use: a new draft, each role given to the person typed for it. */
export function useStartFromTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ templateId, name, roles }: { templateId: number; name: string; roles: TemplateRole[] }) => api.post<typeof signatureResponse>(`/api/signature-template/${templateId}/use`, { name, roles }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: signaturesKeys.lists() }),
  });
}
