"use client";

import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { appListResponse, AppResponse, appResponse, grantListResponse, GrantResponse } from "@/lib/contracts/oauth2";
import { queryString } from "./admin-envelope";

export type OAuthApp = AppResponse;
export type OAuthGrant = GrantResponse;
/** The body of POST /api/oauth2/app and PUT /api/oauth2/app/(clientId) (api.md, "OAuth2"). */
export type OAuthAppInput = {
  name: string;
  description: string | null;
  editor: string | null;
  editor_url: string | null;
  type: 0 | 1;
  kind: "web" | "mobile" | "mail_connector";
  scope: string;
  callbacks_uris: string[];
};

export const oauth2Keys = {
  all: ["oauth2"] as const,
  apps: (offset: number, limit: number) => [...oauth2Keys.all, "apps", offset, limit] as const,
  appTokens: (clientId: string) => [...oauth2Keys.all, "app-tokens", clientId] as const,
  userTokens: () => [...oauth2Keys.all, "user-tokens"] as const,
};

/** GET /api/oauth2/apps (administrators). */
export const oauthAppsQuery = (offset: number, limit: number) =>
  queryOptions({
    queryKey: oauth2Keys.apps(offset, limit),
    queryFn: () => api.get<typeof appListResponse>(`/api/oauth2/apps${queryString({ offset_start: offset, nb_objects: limit })}`),
    placeholderData: keepPreviousData,
  });

/** GET /api/oauth2/app/(clientId)/tokens: who authorised one application. */
export const oauthAppTokensQuery = (clientId: string) =>
  queryOptions({
    queryKey: oauth2Keys.appTokens(clientId),
    queryFn: () => api.get<typeof grantListResponse>(`/api/oauth2/app/${encodeURIComponent(clientId)}/tokens?nb_objects=1000`),
  });

/** GET /api/oauth2/user/tokens: the applications I authorised. */
export const myOAuthGrantsQuery = () =>
  queryOptions({
    queryKey: oauth2Keys.userTokens(),
    queryFn: () => api.get<typeof grantListResponse>("/api/oauth2/user/tokens?nb_objects=1000"),
  });

function useInvalidateOAuth() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: oauth2Keys.all });
}

export function useCreateOAuthApp() {
  const invalidate = useInvalidateOAuth();
  return useMutation({ mutationFn: (input: OAuthAppInput) => api.post<typeof appResponse>("/api/oauth2/app", input), onSuccess: invalidate });
}

export function useUpdateOAuthApp() {
  const invalidate = useInvalidateOAuth();
  return useMutation({
    mutationFn: ({ clientId, input }: { clientId: string; input: Partial<OAuthAppInput> }) => api.put<typeof appResponse>(`/api/oauth2/app/${encodeURIComponent(clientId)}`, input),
    onSuccess: invalidate,
  });
}

/** A new secret (shown once); every token of the application ends. */
export function useResetOAuthApp() {
  const invalidate = useInvalidateOAuth();
  return useMutation({ mutationFn: (clientId: string) => api.post<typeof appResponse>(`/api/oauth2/app/${encodeURIComponent(clientId)}/reset`), onSuccess: invalidate });
}

export function useDeleteOAuthApp() {
  const invalidate = useInvalidateOAuth();
  return useMutation({ mutationFn: (clientId: string) => api.delete(`/api/oauth2/app/${encodeURIComponent(clientId)}`), onSuccess: invalidate });
}

/** An administrator ends anyone's authorisation. */
export function useRevokeOAuthGrant() {
  const invalidate = useInvalidateOAuth();
  return useMutation({ mutationFn: (token: string) => api.delete(`/api/oauth2/app/${encodeURIComponent(token)}/revoke`), onSuccess: invalidate });
}

/** I end one of my own authorisations. */
export function useRevokeMyOAuthGrant() {
  const invalidate = useInvalidateOAuth();
  return useMutation({ mutationFn: (token: string) => api.delete(`/api/oauth2/user/${encodeURIComponent(token)}/revoke`), onSuccess: invalidate });
}
