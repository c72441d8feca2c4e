"use client";

import { useMutation } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { userResponse } from "@/lib/contracts/users";

export type CompleteInvitationInput = { login: string; password: string; firstname?: string; lastname?: string };

/** POST /api/invite/key/(key) (no token): creates the invited account (201 User). */
export function useCompleteInvitation(key: string) {
  return useMutation({
    mutationFn: (input: CompleteInvitationInput) => api.post<typeof userResponse>(`/api/invite/key/${encodeURIComponent(key)}`, input),
  });
}
