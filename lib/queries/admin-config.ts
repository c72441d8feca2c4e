"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { ConfigPatch, ConfigView } from "@/lib/contracts/config";

export type Config = ConfigView;
export type SmtpTestInput = { smtp_host: string; smtp_port: number; smtp_auth: boolean; smtp_secure: boolean; smtp_username: string; smtp_password: string; smtp_from?: string; to?: string };

export const adminConfigKeys = { all: ["admin", "config"] as const };

export const configQuery = () => queryOptions({ queryKey: adminConfigKeys.all, queryFn: () => api.get<Config>("/api/config") });

/** PUT /api/config: only the changed options. */
export function useUpdateConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: ConfigPatch) => api.put<Config>("/api/config", patch),
    onSuccess: (config) => queryClient.setQueryData(adminConfigKeys.all, config),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminConfigKeys.all }),
  });
}

/** POST /api/config/smtp/test: the server's answer, or an ApiError carrying it. */
export function useTestSmtp() {
  return useMutation({ mutationFn: (input: SmtpTestInput) => api.post<{ ok: true; response: string; log?: string[] }>("/api/config/smtp/test", input) });
}
