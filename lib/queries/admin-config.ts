"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { ConfigPatch, configResponse, ConfigView, logoResponse, smtpSettingsResponse, SmtpSettingsView, smtpTestResponse } from "@/lib/contracts/config";
import type { signingSealResponse } from "@/lib/contracts/signing-seal";
import { publicConfigKeys } from "./public-config";

export type Config = ConfigView;
/** With in_force, the settings mail goes through now are tried (GET /api/config/smtp); else the typed ones. */
export type SmtpTestInput = { in_force?: boolean; smtp_host?: string; smtp_port?: number; smtp_auth?: boolean; smtp_secure?: boolean; smtp_username?: string; smtp_password?: string; smtp_from?: string; to?: string };

export type SmtpSettings = SmtpSettingsView;

// Under the configuration's key, so that saving the configuration refreshes the settings in force too.
export const adminConfigKeys = { all: ["admin", "config"] as const, smtp: ["admin", "config", "smtp"] as const };

export const configQuery = () => queryOptions({ queryKey: adminConfigKeys.all, queryFn: () => api.get<typeof configResponse>("/api/config") });

/** GET /api/config/smtp: the SMTP settings mail goes through now, each with its source. */
export const smtpSettingsQuery = () => queryOptions({ queryKey: adminConfigKeys.smtp, queryFn: () => api.get<typeof smtpSettingsResponse>("/api/config/smtp") });

/** PUT /api/config: only the changed options. */
export function useUpdateConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: ConfigPatch) => api.put<typeof configResponse>("/api/config", patch),
    onSuccess: (config) => queryClient.setQueryData(adminConfigKeys.all, config),
    // The name and colour show on pages that read publicconfig.
    onSettled: () => invalidateBranding(queryClient),
  });
}

/** POST /api/config/smtp/test: the server's answer, or an ApiError carrying it. */
export function useTestSmtp() {
  return useMutation({ mutationFn: (input: SmtpTestInput) => api.post<typeof smtpTestResponse>("/api/config/smtp/test", input) });
}

/** POST /api/config/logo (multipart, part targetFile): the new logo; pages pick it up through publicconfig. */
export function useUploadLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append("targetFile", file);
      return api.upload<typeof logoResponse>("/api/config/logo", form);
    },
    onSettled: () => invalidateBranding(queryClient),
  });
}

/** DELETE /api/config/logo: back to the default mark. */
export function useRemoveLogo() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: () => api.delete("/api/config/logo"), onSettled: () => invalidateBranding(queryClient) });
}

function invalidateBranding(queryClient: ReturnType<typeof useQueryClient>) {
  return Promise.all([queryClient.invalidateQueries({ queryKey: adminConfigKeys.all }), queryClient.invalidateQueries({ queryKey: publicConfigKeys.all })]);
}

/** GET /api/signatures/seal: the certificate that seals signed PDFs and the level of the seals. */
export const signingSealQuery = () => queryOptions({ queryKey: ["admin", "signing-seal"] as const, queryFn: () => api.get<typeof signingSealResponse>("/api/signatures/seal") });
