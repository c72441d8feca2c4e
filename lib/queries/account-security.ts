"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { ReauthInput } from "@/lib/contracts/account";
import type { AppPasswordItem, appPasswordListResponse, CreatedAppPassword, createdAppPasswordResponse, SessionItem, sessionListResponse } from "@/lib/contracts/account-security";

export type { AppPasswordItem, CreatedAppPassword, SessionItem };

// An app password is also a session of the list: every change here refreshes both lists.
export const accountSecurityKeys = {
  all: ["account-security"] as const,
  sessions: () => [...accountSecurityKeys.all, "sessions"] as const,
  appPasswords: () => [...accountSecurityKeys.all, "app-passwords"] as const,
};

/** GET /api/account/sessions. */
export const sessionsQuery = () =>
  queryOptions({ queryKey: accountSecurityKeys.sessions(), queryFn: () => api.get<typeof sessionListResponse>("/api/account/sessions?nb_objects=1000") });

/** GET /api/account/app_passwords. */
export const appPasswordsQuery = () =>
  queryOptions({ queryKey: accountSecurityKeys.appPasswords(), queryFn: () => api.get<typeof appPasswordListResponse>("/api/account/app_passwords?nb_objects=1000") });

function useSecurityMutation<I, R>(fn: (input: I) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => queryClient.invalidateQueries({ queryKey: accountSecurityKeys.all }) });
}

export const useEndSession = () => useSecurityMutation((id: number) => api.delete(`/api/account/session/${id}`));
export const useEndOtherSessions = () => useSecurityMutation(() => api.delete("/api/account/sessions"));
export const useCreateAppPassword = () => useSecurityMutation((input: { name: string } & ReauthInput) => api.post<typeof createdAppPasswordResponse>("/api/account/app_passwords", input));
export const useRevokeAppPassword = () => useSecurityMutation((id: number) => api.delete(`/api/account/app_password/${id}`));
