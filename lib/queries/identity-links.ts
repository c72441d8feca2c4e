"use client";

import type { ReauthInput } from "@/lib/contracts/account";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { accountIdentityResponse, connectIdentityResponse } from "@/lib/contracts/identity-links";

// The outside identity that opens an account (issue 25): the caller's own (account page) and any
// account's (console). An existing account is linked from inside only: its owner connects a
// provider, or an administrator links it.

export const identityLinkKeys = {
  all: ["identity-link"] as const,
  own: () => [...identityLinkKeys.all, "account"] as const,
  user: (userId: string) => [...identityLinkKeys.all, "user", userId] as const,
};

/** GET /api/account/identity */
export const accountIdentityQuery = () => queryOptions({ queryKey: identityLinkKeys.own(), queryFn: () => api.get<typeof accountIdentityResponse>("/api/account/identity") });

/**
 * POST /api/account/identity: the re-authentication confirms it is the owner; the answer is the provider's
 * address, where the browser goes (it comes back to /account once the identity is linked).
 */
export function useConnectIdentity() {
  return useMutation({
    mutationFn: (input: { provider_id: string } & ReauthInput) => api.post<typeof connectIdentityResponse>("/api/account/identity", input),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

/** GET /api/user/(id)/identity (administrators) */
export const userIdentityQuery = (userId: string) =>
  queryOptions({ queryKey: identityLinkKeys.user(userId), queryFn: () => api.get<typeof accountIdentityResponse>(`/api/user/${encodeURIComponent(userId)}/identity`) });

/** PUT /api/user/(id)/identity (administrators): the owner is mailed. */
export function useLinkUserIdentity(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { provider_id: string; external_id: string }) => api.put<typeof accountIdentityResponse>(`/api/user/${encodeURIComponent(userId)}/identity`, input),
    onSuccess: (data) => queryClient.setQueryData(identityLinkKeys.user(userId), data),
  });
}

/** DELETE /api/user/(id)/identity (administrators) */
export function useUnlinkUserIdentity(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(`/api/user/${encodeURIComponent(userId)}/identity`),
    onSuccess: () => queryClient.setQueryData(identityLinkKeys.user(userId), { identity: null }),
  });
}
